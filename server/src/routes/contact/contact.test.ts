import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listContactMessages } from '../../db';
import { testDialects } from '../../db/testing';
import { registration, startTestServer, type TestServer } from '../../testing/server';
import { CONTACT_BUDGET, CONTACT_CONFIRMATION } from './router';

describe.each(testDialects())('POST /api/contact (%s)', (dialect) => {
  let t: TestServer;
  const message = { name: 'Ravi Kumar', email: 'Ravi@Example.in', message: 'Does the bot trade BANKNIFTY?' };

  beforeAll(async () => {
    t = await startTestServer({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });
  // Each test starts with a fresh per-IP budget.
  beforeEach(() => {
    t.clock.advance(CONTACT_BUDGET.windowMs + 1);
  });

  it('stores an anonymous message (no sign-in needed) and confirms it', async () => {
    const res = await t.request('POST', '/api/contact', { body: message });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, message: CONTACT_CONFIRMATION });
    const [stored] = await listContactMessages(t.server.deps.db.knex);
    expect(stored).toMatchObject({
      name: 'Ravi Kumar',
      message: message.message,
      user_id: null,
      handled_at: null,
    });
  });

  it("records the sender's user id when signed in, and ignores a stale token", async () => {
    const reg = await t.request('POST', '/api/auth/register', { body: registration('contact') });
    const id = (reg.json.user as { id: number }).id;
    const signed = await t.request('POST', '/api/contact', {
      token: reg.json.token as string,
      body: { ...message, message: 'signed in' },
    });
    expect(signed.status).toBe(200);
    const stale = await t.request('POST', '/api/contact', {
      token: 'not.a.token',
      body: { ...message, message: 'stale' },
    });
    expect(stale.status).toBe(200);
    const rows = await listContactMessages(t.server.deps.db.knex);
    expect(rows.find((r) => r.message === 'signed in')?.user_id).toBe(id);
    expect(rows.find((r) => r.message === 'stale')?.user_id).toBeNull();
  });

  it.each([
    [{ ...message, email: 'not-an-email' }, 'email'],
    [{ ...message, name: '  ' }, 'name'],
    [{ ...message, message: '' }, 'message'],
    [{ ...message, message: 'x'.repeat(5001) }, 'message'],
    [{ name: 'A', email: 'a@b.in' }, 'message'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await t.request('POST', '/api/contact', { body });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'validation_failed', field });
  });

  it('allows 5 messages per IP in 10 minutes, then 429 with Retry-After, and again after the window', async () => {
    const before = (await listContactMessages(t.server.deps.db.knex, { limit: 1000 })).length;
    for (let i = 0; i < CONTACT_BUDGET.limit; i++) {
      expect(
        (await t.request('POST', '/api/contact', { body: { ...message, message: `burst ${i}` } })).status,
      ).toBe(200);
    }
    const blocked = await t.request('POST', '/api/contact', {
      body: { ...message, message: 'one too many' },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.json.error).toBe('rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    const after = await listContactMessages(t.server.deps.db.knex, { limit: 1000 });
    expect(after.length).toBe(before + CONTACT_BUDGET.limit);
    expect(after.some((r) => r.message === 'one too many')).toBe(false);

    t.clock.advance(CONTACT_BUDGET.windowMs);
    expect((await t.request('POST', '/api/contact', { body: message })).status).toBe(200);
  });
});
