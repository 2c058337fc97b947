// The runtime's broker sessions: decrypted once from the database, valid only while connected and unexpired with a
// module installed, refreshed per user, and an account whose sealed columns cannot be opened trades paper.
import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { BrokerRegistry } from '../brokers/registry';
import type { BrokerModule } from '../brokers/types';
import { createSecretBox } from '../crypto';
import { findBrokerAccountByUser, insertUser, saveBrokerCredentials, updateBrokerAccount } from '../db';
import { useTestDatabase } from '../db/testing';
import { createBrokerSessions } from './brokerSessions';

const NOW = Date.UTC(2026, 0, 7, 5, 0);
const box = createSecretBox(randomBytes(32));
const kite = { type: 'zerodha', label: 'Zerodha Kite' } as unknown as BrokerModule;
const registry = { get: (type: string) => (type === 'zerodha' ? kite : undefined) } as BrokerRegistry;

describe('broker sessions', () => {
  const db = useTestDatabase('sqlite');

  async function account(name: string, type: 'zerodha' | 'fyers', seal = box.seal.bind(box)) {
    const user = await insertUser(db(), {
      email: `${name}@example.com`,
      first_name: name,
      last_name: 'T',
      password_hash: 'x',
    });
    await saveBrokerCredentials(
      db(),
      user.id,
      {
        broker_type: type,
        api_key_enc: seal('apikey123456'),
        api_secret_enc: seal('secret-xyz'),
        api_key_last4: '3456',
      },
      NOW,
    );
    await updateBrokerAccount(db(), user.id, {
      status: 'connected',
      access_token_enc: seal('token-abc'),
      token_expires_at: NOW + 3_600_000,
      broker_user_id: 'AB1234',
      connected_at: NOW,
    });
    return user.id;
  }

  it('holds each valid session decrypted, with a key per login, until it expires or the user disconnects', async () => {
    const id = await account('asha', 'zerodha');
    const noModule = await account('ravi', 'fyers');
    const warn = vi.fn();
    const sessions = createBrokerSessions({ db: { knex: db(), dialect: 'sqlite' }, box, registry, warn });
    await sessions.loadAll();
    expect(sessions.get(id, NOW)).toMatchObject({
      module: kite,
      credentials: { apiKey: 'apikey123456', apiSecret: 'secret-xyz' },
      session: { accessToken: 'token-abc', expiresAt: NOW + 3_600_000, accountId: 'AB1234' },
      key: `zerodha:AB1234:${NOW}:${NOW + 3_600_000}`,
    });
    expect(sessions.get(noModule, NOW)).toBeUndefined();
    expect(sessions.get(id, NOW + 3_600_000)).toBeUndefined();

    await updateBrokerAccount(db(), id, { status: 'disconnected', access_token_enc: null });
    expect(sessions.get(id, NOW)).toBeDefined(); // nothing is read per call
    await sessions.refresh(id);
    expect(sessions.get(id, NOW)).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });

  it('marks the session the broker refused expired, but never a newer login that replaced it', async () => {
    const id = await account('meera', 'zerodha');
    const sessions = createBrokerSessions({
      db: { knex: db(), dialect: 'sqlite' },
      box,
      registry,
      warn: vi.fn(),
    });
    await sessions.loadAll();
    const old = sessions.get(id, NOW)!.key;
    // The trader logs in again; a late refusal of the old token arrives afterwards.
    await updateBrokerAccount(db(), id, { connected_at: NOW + 1, access_token_enc: box.seal('token-new') });
    await sessions.refresh(id);
    expect(await sessions.end(id, old, NOW + 2)).toBe(false);
    expect(sessions.get(id, NOW + 2)?.session.accessToken).toBe('token-new');
    // Now the broker refuses the current token: the card will say Session expired, with the fixed message.
    expect(await sessions.end(id, sessions.get(id, NOW + 2)!.key, NOW + 3)).toBe(true);
    expect(sessions.get(id, NOW + 3)).toBeUndefined();
    expect(await findBrokerAccountByUser(db(), id)).toMatchObject({
      status: 'expired',
      last_error: 'Your broker session has expired. Reconnect to trade today.',
    });
  });

  it('treats an account whose secrets cannot be opened as not connected, and says so', async () => {
    const other = createSecretBox(randomBytes(32));
    const id = await account('meena', 'zerodha', other.seal.bind(other));
    const warn = vi.fn();
    const sessions = createBrokerSessions({ db: { knex: db(), dialect: 'sqlite' }, box, registry, warn });
    await sessions.loadAll();
    expect(sessions.get(id, NOW)).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(id, expect.stringMatching(/cannot be decrypted/));
  });

  it('records one notice per IP block and one reconnect notice per trading date, with the account change', async () => {
    const id = await account('kiran', 'zerodha');
    const sessions = createBrokerSessions({
      db: { knex: db(), dialect: 'sqlite' },
      box,
      registry,
      warn: vi.fn(),
    });
    await sessions.loadAll();
    const key = sessions.get(id, NOW)!.key;
    const message = 'Zerodha refused orders from IP 203.0.113.7';
    expect(await sessions.block(id, key, message, NOW + 1)).toBe(true);
    // Several orders refused at once: the account is blocked once, and so is the notice.
    expect(await sessions.block(id, key, message, NOW + 2)).toBe(false);
    await sessions.refresh(id);
    const notices = async () =>
      (
        (await db()('notification_outbox').where({ user_id: id }).orderBy('id')) as Array<{
          event: string;
          payload: string;
        }>
      ).map((r) => [r.event, JSON.parse(r.payload) as unknown]);
    expect(await notices()).toEqual([
      ['order_rejected', { kind: 'ip_not_allowed', broker: 'zerodha', message, at: NOW + 1 }],
    ]);

    await db()('broker_accounts').where({ user_id: id }).update({ ip_blocked_at: null });
    await sessions.refresh(id);
    expect(await sessions.end(id, sessions.get(id, NOW + 3)!.key, NOW + 3)).toBe(true);
    expect((await notices())[1]).toEqual([
      'broker_session_expired',
      { broker: 'zerodha', accountName: null, expiresAt: NOW + 3_600_000, date: '2026-01-07' },
    ]);
  });
});
