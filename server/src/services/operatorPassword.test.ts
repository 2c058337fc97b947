import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../auth/passwords';
import { createManualClock } from '../clock';
import { createSession, findActiveSession, findUserByEmail, listLogs } from '../db';
import { openTestDatabase, testDialects, type TestDatabase } from '../db/testing';
import { AppError } from '../errors';
import { setPasswordByOperator } from './operatorPassword';
import { createUser } from './users';

describe.each(testDialects())('setPasswordByOperator (%s)', (dialect) => {
  let t: TestDatabase;
  const clock = createManualClock(Date.UTC(2026, 10, 23));
  const passwords = createPasswordHasher();
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('sets the password, ends every session and writes an audit entry', async () => {
    const user = await createUser({
      db: t.db.knex,
      now: clock.now(),
      user: {
        email: 'trader@example.com',
        firstName: 'T',
        lastName: 'R',
        passwordHash: await passwords.hash('Old12345'),
      },
    });
    for (const id of ['s-1', 's-2']) {
      await createSession(
        t.db.knex,
        { id, user_id: user.id, expires_at: clock.now() + 3_600_000, ip: '1.2.3.4', user_agent: null },
        clock.now(),
      );
    }
    const result = await setPasswordByOperator({
      db: t.db,
      passwords,
      clock,
      email: 'trader@example.com',
      password: 'Chosen2026',
    });
    expect(result).toEqual({ email: 'trader@example.com', revokedSessions: 2 });
    const stored = await findUserByEmail(t.db.knex, 'trader@example.com');
    expect(await passwords.verify(stored?.password_hash ?? '', 'Chosen2026')).toBe(true);
    expect(await findActiveSession(t.db.knex, 's-1', clock.now())).toBeFalsy();
    const logs = await listLogs(t.db.knex, {});
    expect(logs.some((l) => l.description === 'Password set by an operator' && l.user_id === user.id)).toBe(
      true,
    );
  });

  it('generates a password when none is given, and refuses an unknown e-mail', async () => {
    const result = await setPasswordByOperator({ db: t.db, passwords, clock, email: 'trader@example.com' });
    expect(result.generatedPassword).toMatch(/^[A-Za-z0-9]{20}$/);
    const stored = await findUserByEmail(t.db.knex, 'trader@example.com');
    expect(await passwords.verify(stored?.password_hash ?? '', result.generatedPassword ?? '')).toBe(true);
    await expect(
      setPasswordByOperator({ db: t.db, passwords, clock, email: 'nobody@example.com' }),
    ).rejects.toBeInstanceOf(AppError);
  });
});
