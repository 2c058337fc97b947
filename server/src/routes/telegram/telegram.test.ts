import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../../test/fakes/telegram/server';
import { sha256Hex } from '../../crypto';
import { testDialects } from '../../db/testing';
import { registration, startTestServer, type TestServer } from '../../testing/server';
import { LINK_CODE_BUDGET } from './router';

const signUp = async (t: TestServer, n: string) => {
  const res = await t.request('POST', '/api/auth/register', { body: registration(`tgr-${n}`) });
  expect(res.status).toBe(201);
  return { token: res.json.token as string, id: (res.json.user as { id: number }).id };
};

describe.each(testDialects())('Telegram link API (%s)', (dialect) => {
  let fake: FakeTelegram;
  let t: TestServer;
  let user: { token: string; id: number };

  beforeAll(async () => {
    fake = await startFakeTelegram();
    t = await startTestServer({
      dialect,
      env: { TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.url },
    });
    user = await signUp(t, 'user');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it.each([
    ['GET', '/api/user/telegram'],
    ['POST', '/api/user/telegram/link-code'],
    ['DELETE', '/api/user/telegram/link'],
  ])('%s %s is 401 without a token and with a forged one', async (method, path) => {
    const body = method === 'POST' ? {} : undefined;
    expect((await t.request(method, path, { body })).status).toBe(401);
    const forged = await t.request(method, path, { body, token: 'eyJhbGciOiJIUzI1NiJ9.e30.forged' });
    expect(forged.status).toBe(401);
  });

  it('refuses fields on POST link-code with a 400 naming the field', async () => {
    const res = await t.request('POST', '/api/user/telegram/link-code', {
      token: user.token,
      body: { userId: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('validation_failed');
    expect(String(res.json.message)).toMatch(/takes no fields/);
  });

  it('a code is stored only as its hash, and the reply names the bot from getMe', async () => {
    const res = await t.request('POST', '/api/user/telegram/link-code', { token: user.token, body: {} });
    expect(res.status).toBe(201);
    const code = res.json.code as string;
    expect(res.json.deepLink).toBe(`https://t.me/${fake.botUsername}?start=${code}`);
    const rows = (await t.server.deps.db.knex('telegram_link_codes').where({ user_id: user.id })) as Array<{
      code_hash: string;
    }>;
    expect(rows.map((r) => r.code_hash)).toEqual([sha256Hex(code)]);
    expect(JSON.stringify(rows)).not.toContain(code);
    // The bot's name is asked of Telegram once and kept: a second code asks no more (the server's own bot, polling
    // beside the route, asks getMe once for itself when it starts).
    const asked = fake.calls.filter((c) => c.method === 'getMe').length;
    const again = await t.request('POST', '/api/user/telegram/link-code', { token: user.token, body: {} });
    expect(again.status).toBe(201);
    expect(fake.calls.filter((c) => c.method === 'getMe')).toHaveLength(asked);
  });

  it('a trader gets at most LINK_CODE_BUDGET.limit codes per window', async () => {
    const other = await signUp(t, 'budget');
    const statuses: number[] = [];
    for (let i = 0; i <= LINK_CODE_BUDGET.limit; i += 1) {
      const res = await t.request('POST', '/api/user/telegram/link-code', { token: other.token, body: {} });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('GET says what is linked; DELETE with nothing linked is still a clean unlinked answer', async () => {
    expect((await t.request('GET', '/api/user/telegram', { token: user.token })).json).toEqual({
      available: true,
      linked: false,
      username: null,
      linkedAt: null,
    });
    const res = await t.request('DELETE', '/api/user/telegram/link', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ linked: false });
  });

  it('another trader’s link is neither shown nor removed', async () => {
    const owner = await signUp(t, 'owner');
    await t.server.deps.db.knex('telegram_links').insert({
      user_id: owner.id,
      chat_id: '777',
      username: 'owner_tg',
      linked_at: Date.now(),
    });
    expect((await t.request('GET', '/api/user/telegram', { token: user.token })).json).toMatchObject({
      linked: false,
    });
    await t.request('DELETE', '/api/user/telegram/link', { token: user.token });
    expect((await t.request('GET', '/api/user/telegram', { token: owner.token })).json).toMatchObject({
      linked: true,
      username: 'owner_tg',
    });
  });
});

describe('Telegram link API without a bot', () => {
  it('says Telegram is unavailable and gives no code', async () => {
    const t = await startTestServer();
    try {
      const user = await signUp(t, 'nobot');
      expect((await t.request('GET', '/api/user/telegram', { token: user.token })).json).toMatchObject({
        available: false,
        linked: false,
      });
      const res = await t.request('POST', '/api/user/telegram/link-code', { token: user.token, body: {} });
      expect(res.status).toBe(404);
      expect(res.json.message).toBe('Telegram notifications are not set up on this server.');
    } finally {
      await t.close();
    }
  });

  it('answers 503 when Telegram cannot be reached, without the token in the logs', async () => {
    const token = '123456789:UNREACHABLE-token_for-tests_0123';
    const t = await startTestServer({
      env: { TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_ROOT: 'http://127.0.0.1:9' },
    });
    try {
      const user = await signUp(t, 'unreachable');
      const res = await t.request('POST', '/api/user/telegram/link-code', { token: user.token, body: {} });
      expect(res.status).toBe(503);
      expect(t.logs.join('\n')).toContain('Telegram getMe failed');
      expect(t.logs.join('\n')).not.toContain('UNREACHABLE-token');
    } finally {
      await t.close();
    }
  });
});
