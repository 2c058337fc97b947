import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveTradingSettings, setAdminControl } from '../../db';
import { signInFirstAdmin } from '../../testing/admin';
import { registration, startTestServer, type TestServer } from '../../testing/server';

describe('GET /api/strategy', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer();
    token = (await t.request('POST', '/api/auth/register', { body: registration('strategy') })).json
      .token as string;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is 401 without a token and with a forged one', async () => {
    expect((await t.request('GET', '/api/strategy')).status).toBe(401);
    expect((await t.request('GET', '/api/strategy', { token: 'forged.jwt.token' })).status).toBe(401);
  });

  it('shows any signed-in user (no subscription needed) the rules with the current parameters', async () => {
    const res = await t.request('GET', '/api/strategy', { token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      name: 'Consecutive-candle breakout',
      intervalMinutes: 1,
      params: {
        consecutiveCandles: 3,
        minMovement: 5,
        entryOffset: 2,
        stopLoss: 20,
        target: 40,
        callEnabled: true,
        putEnabled: true,
        tradingEnabled: true,
        squareOffTime: '15:15',
      },
    });
    const rules = res.json.rules as string[];
    expect(rules.some((r) => r.includes('at least 5 points'))).toBe(true);
    expect(rules.some((r) => r.startsWith('Demo mode'))).toBe(true);
  });

  it('reflects admin changes after a controls reload, and keeps the last valid value of a bad one', async () => {
    const knex = t.server.deps.db.knex;
    await setAdminControl(knex, 'consecutiveCandles', '4', null);
    await setAdminControl(knex, 'putEnabled', 'false', null);
    await t.server.deps.trading.reloadControls();
    const res = await t.request('GET', '/api/strategy', { token });
    expect(res.json).toMatchObject({ params: { consecutiveCandles: 4, putEnabled: false } });
    expect(
      (res.json.rules as string[]).some((r) => r.includes('PUT signals are currently switched off')),
    ).toBe(true);

    await setAdminControl(knex, 'consecutiveCandles', 'many', null);
    await t.server.deps.trading.reloadControls();
    const after = await t.request('GET', '/api/strategy', { token });
    expect(after.json).toMatchObject({ params: { consecutiveCandles: 4 } });
  });

  it('shows a trader who follows another strategy that strategy and its parameters', async () => {
    const admin = await signInFirstAdmin(t);
    const created = await t.request('POST', '/api/admin/strategies', {
      token: admin.token,
      body: {
        name: 'Calls only',
        description: 'Breakouts on the call side',
        sides: 'CE',
        parameters: {
          interval: 3,
          consecutiveCandles: 2,
          minMovement: 4,
          entryOffset: 1.5,
          stopLoss: 15,
          target: 30,
          maxLoss: 3000,
          orderType: 'SLM',
        },
      },
    });
    expect(created.status).toBe(201);
    const strategyId = (created.json.strategy as { id: number }).id;
    const me = await t.request('GET', '/api/auth/me', { token });
    await saveTradingSettings(t.server.deps.db.knex, (me.json as { id: number }).id, {
      strategy_id: strategyId,
    });
    const res = await t.request('GET', '/api/strategy', { token });
    expect(res.json).toMatchObject({
      name: 'Consecutive-candle breakout: Calls only',
      intervalMinutes: 3,
      params: { consecutiveCandles: 2, stopLoss: 15, target: 30, putEnabled: false },
    });
  });
});
