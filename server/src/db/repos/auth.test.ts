import { describe, expect, it } from 'vitest';
import { isCheckViolation, isForeignKeyViolation, isUniqueViolation } from '../errors';
import { testDialects, useTestDatabase } from '../testing';
import {
  countAdmins,
  countUsers,
  findUserByEmail,
  findUserById,
  insertUser,
  listUsers,
  touchUserActivity,
  updateUser,
} from './users';
import { createSession, findActiveSession, revokeAllSessionsForUser, revokeSession } from './sessions';
import {
  consumePasswordReset,
  countRecentPasswordResets,
  createPasswordReset,
  invalidatePasswordResets,
} from './passwordResets';
import { insertContactMessage, listContactMessages, markContactMessageHandled } from './contactMessages';

const HASH = '$argon2id$v=19$m=65536,t=3,p=4$fake';
let seq = 0;
const email = () => `User${++seq}@Example.COM`;

describe.each(testDialects())('auth repositories on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  describe('users', () => {
    it('stores e-mail lowercase, finds it case-insensitively and normalises booleans and times', async () => {
      const address = email();
      const user = await insertUser(
        db(),
        { email: address, first_name: 'Asha', last_name: 'Rao', password_hash: HASH },
        1_767_225_600_123,
      );
      expect(user.email).toBe(address.toLowerCase());
      expect(user.is_admin).toBe(false);
      expect(user.subscription_status).toBe('pending');
      expect(user.created_at).toBe(1_767_225_600_123);
      expect(typeof user.created_at).toBe('number');
      expect(user.phone).toBe('');
      expect(user.subscription_end_at).toBeNull();

      const found = await findUserByEmail(db(), `  ${address.toUpperCase()} `);
      expect(found).toEqual(user);
      expect(await findUserById(db(), user.id)).toEqual(user);
      expect(await findUserById(db(), 999_999)).toBeUndefined();
    });

    it('rejects a duplicate e-mail whatever its case', async () => {
      const address = email();
      await insertUser(db(), { email: address, first_name: 'A', last_name: 'B', password_hash: HASH });
      const err: unknown = await insertUser(db(), {
        email: address.toUpperCase(),
        first_name: 'C',
        last_name: 'D',
        password_hash: HASH,
      }).catch((e: unknown) => e);
      expect(isUniqueViolation(err)).toBe(true);
    });

    it('refuses an unknown subscription status and a non-lowercase e-mail written directly', async () => {
      const bad: unknown = await db()('users')
        .insert({
          email: email().toLowerCase(),
          first_name: 'A',
          last_name: 'B',
          password_hash: HASH,
          subscription_status: 'gold',
          created_at: 1,
          updated_at: 1,
        })
        .catch((e: unknown) => e);
      expect(isCheckViolation(bad)).toBe(true);
      const upper: unknown = await db()('users')
        .insert({
          email: 'MiXed@x.in',
          first_name: 'A',
          last_name: 'B',
          password_hash: HASH,
          created_at: 1,
          updated_at: 1,
        })
        .catch((e: unknown) => e);
      expect(isCheckViolation(upper)).toBe(true);
    });

    it('updates fields and updated_at, keeps created_at, and touches activity alone', async () => {
      const user = await insertUser(
        db(),
        { email: email(), first_name: 'A', last_name: 'B', password_hash: HASH },
        1000,
      );
      const updated = await updateUser(
        db(),
        user.id,
        { is_admin: true, subscription_status: 'active', subscription_end_at: 5000, state_code: '27' },
        2000,
      );
      expect(updated).toMatchObject({
        is_admin: true,
        subscription_status: 'active',
        subscription_end_at: 5000,
        state_code: '27',
        created_at: 1000,
        updated_at: 2000,
      });
      await touchUserActivity(db(), user.id, 3000);
      const after = await findUserById(db(), user.id);
      expect(after?.last_active_at).toBe(3000);
      expect(after?.updated_at).toBe(2000);
      expect(await updateUser(db(), 999_999, { first_name: 'X' })).toBeUndefined();
    });

    it('counts enabled admins and lists users with search and status filters', async () => {
      const before = await countAdmins(db());
      const admin = await insertUser(db(), {
        email: email(),
        first_name: 'Root',
        last_name: 'Admin',
        password_hash: HASH,
        is_admin: true,
      });
      expect(await countAdmins(db())).toBe(before + 1);
      await updateUser(db(), admin.id, { disabled_at: Date.now() });
      expect(await countAdmins(db())).toBe(before);

      const zed = await insertUser(db(), {
        email: 'zed.percent%@example.com',
        first_name: 'Zed',
        last_name: 'Kumar',
        password_hash: HASH,
        subscription_status: 'active',
      });
      expect((await listUsers(db(), { search: 'zed kum' })).map((u) => u.id)).toEqual([zed.id]);
      expect((await listUsers(db(), { search: 'PERCENT%' })).map((u) => u.id)).toEqual([zed.id]);
      expect(await listUsers(db(), { search: 'no_such' })).toEqual([]);
      const active = await listUsers(db(), { status: 'active' });
      expect(active.every((u) => u.subscription_status === 'active')).toBe(true);
      expect(active.map((u) => u.id)).toContain(zed.id);
      expect(await countUsers(db(), 'active')).toBe(active.length);
      expect(await countUsers(db())).toBe((await listUsers(db())).length);
    });
  });

  describe('sessions', () => {
    it('finds only live sessions and revokes one or all but one', async () => {
      const user = await insertUser(db(), {
        email: email(),
        first_name: 'S',
        last_name: 'T',
        password_hash: HASH,
      });
      const now = 1_000_000;
      for (const id of ['jti-a', 'jti-b', 'jti-c'])
        await createSession(
          db(),
          { id: `${id}-${user.id}`, user_id: user.id, expires_at: now + 60_000 },
          now,
        );
      await createSession(db(), { id: `old-${user.id}`, user_id: user.id, expires_at: now - 1 }, now - 10);

      const found = await findActiveSession(db(), `jti-a-${user.id}`, now);
      expect(found?.session).toMatchObject({
        id: `jti-a-${user.id}`,
        user_id: user.id,
        expires_at: now + 60_000,
      });
      expect(found?.user).toMatchObject({ id: user.id, is_admin: false, created_at: user.created_at });
      expect(await findActiveSession(db(), `jti-a-${user.id}`, now + 60_000)).toBeUndefined();
      expect(await findActiveSession(db(), `old-${user.id}`, now)).toBeUndefined();

      expect(await revokeSession(db(), `jti-a-${user.id}`, 'logout', now)).toBe(true);
      expect(await revokeSession(db(), `jti-a-${user.id}`, 'logout', now)).toBe(false);
      expect(await findActiveSession(db(), `jti-a-${user.id}`, now)).toBeUndefined();

      const revoked = await revokeAllSessionsForUser(db(), user.id, 'password_changed', {
        exceptId: `jti-b-${user.id}`,
        now,
      });
      expect(revoked).toBe(2); // jti-c and the expired one; jti-a was already revoked
      expect(await findActiveSession(db(), `jti-b-${user.id}`, now)).toBeDefined();
      expect(await findActiveSession(db(), `jti-c-${user.id}`, now)).toBeUndefined();
      const row = await db()('sessions')
        .where({ id: `jti-c-${user.id}` })
        .first();
      expect(row).toMatchObject({ revoked_at: now, revoked_reason: 'password_changed' });
    });

    it('rejects a session for a missing user and a duplicate jti', async () => {
      const fk: unknown = await createSession(db(), { id: 'orphan', user_id: 999_999, expires_at: 1 }).catch(
        (e: unknown) => e,
      );
      expect(isForeignKeyViolation(fk)).toBe(true);
      const user = await insertUser(db(), {
        email: email(),
        first_name: 'S',
        last_name: 'T',
        password_hash: HASH,
      });
      await createSession(db(), { id: `dup-${user.id}`, user_id: user.id, expires_at: 1 });
      const dup: unknown = await createSession(db(), {
        id: `dup-${user.id}`,
        user_id: user.id,
        expires_at: 1,
      }).catch((e: unknown) => e);
      expect(isUniqueViolation(dup)).toBe(true);
    });
  });

  describe('password resets', () => {
    it('are single use', async () => {
      const user = await insertUser(db(), {
        email: email(),
        first_name: 'P',
        last_name: 'R',
        password_hash: HASH,
      });
      const tokenHash = `a${user.id}`.padEnd(64, '0');
      await createPasswordReset(db(), { user_id: user.id, token_hash: tokenHash, expires_at: 2000 }, 1000);
      const first = await consumePasswordReset(db(), tokenHash, 1500);
      expect(first).toMatchObject({ user_id: user.id, used_at: 1500 });
      expect(await consumePasswordReset(db(), tokenHash, 1600)).toBeUndefined();
    });

    it('let exactly one of two concurrent consumers win', async () => {
      const user = await insertUser(db(), {
        email: email(),
        first_name: 'P',
        last_name: 'R',
        password_hash: HASH,
      });
      const tokenHash = `c${user.id}`.padEnd(64, '0');
      await createPasswordReset(db(), { user_id: user.id, token_hash: tokenHash, expires_at: 2000 }, 1000);
      const results = await Promise.all([
        consumePasswordReset(db(), tokenHash, 1500),
        consumePasswordReset(db(), tokenHash, 1500),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('expire, can be invalidated, and are counted for rate limiting', async () => {
      const user = await insertUser(db(), {
        email: email(),
        first_name: 'P',
        last_name: 'R',
        password_hash: HASH,
      });
      const expiring = `e${user.id}`.padEnd(64, '0');
      const other = `f${user.id}`.padEnd(64, '0');
      await createPasswordReset(db(), { user_id: user.id, token_hash: expiring, expires_at: 2000 }, 1000);
      await createPasswordReset(db(), { user_id: user.id, token_hash: other, expires_at: 9000 }, 1200);
      expect(await consumePasswordReset(db(), expiring, 2000)).toBeUndefined();
      expect(await countRecentPasswordResets(db(), user.id, 1100)).toBe(1);
      expect(await invalidatePasswordResets(db(), user.id, 2500)).toBe(2);
      expect(await consumePasswordReset(db(), other, 3000)).toBeUndefined();
      expect(await consumePasswordReset(db(), 'unknown', 1)).toBeUndefined();
    });

    it('refuse a duplicate token hash', async () => {
      const user = await insertUser(db(), {
        email: email(),
        first_name: 'P',
        last_name: 'R',
        password_hash: HASH,
      });
      const tokenHash = `d${user.id}`.padEnd(64, '0');
      await createPasswordReset(db(), { user_id: user.id, token_hash: tokenHash, expires_at: 2000 });
      const err: unknown = await createPasswordReset(db(), {
        user_id: user.id,
        token_hash: tokenHash,
        expires_at: 2000,
      }).catch((e: unknown) => e);
      expect(isUniqueViolation(err)).toBe(true);
    });
  });

  describe('contact messages', () => {
    it('are stored, listed newest first and marked handled once', async () => {
      const a = await insertContactMessage(db(), { name: 'A', email: 'a@x.in', message: 'hello' }, 10);
      const b = await insertContactMessage(db(), { name: 'B', email: 'b@x.in', message: 'again' }, 20);
      expect((await listContactMessages(db())).map((m) => m.id)).toEqual([b.id, a.id]);
      expect(await markContactMessageHandled(db(), a.id, 30)).toBe(true);
      expect(await markContactMessageHandled(db(), a.id, 40)).toBe(false);
      expect((await listContactMessages(db(), { unhandledOnly: true })).map((m) => m.id)).toEqual([b.id]);
    });
  });
});
