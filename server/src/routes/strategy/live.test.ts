// `strategy:info` (issue 18 item 1): every change of a control, a strategy or the master switch reaches every open
// dashboard over the socket, in the shape GET /api/strategy answers, each trader with the strategy they follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StrategyInfoDto } from '../../contract';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';
import { startTestServer, type TestServer } from '../../testing/server';
import { connected, openSocket, type TestSocket } from '../../testing/socket';

/** The strategy:info events a socket hears, in order, with a way to wait for the next one. */
function heard(socket: TestSocket) {
  const events: StrategyInfoDto[] = [];
  const waiting: Array<(info: StrategyInfoDto) => void> = [];
  socket.on('strategy:info', (info) => {
    const next = waiting.shift();
    if (next) next(info);
    else events.push(info);
  });
  return {
    next: (): Promise<StrategyInfoDto> => {
      const queued = events.shift();
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

describe('strategy:info', () => {
  let t: TestServer;
  let admin: Caller;
  let follower: Caller;
  let chooser: Caller;
  let callsOnlyId: number;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    admin = await signInFirstAdmin(t);
    follower = await registerTrader(t, 'follows-default');
    chooser = await registerTrader(t, 'follows-calls-only');
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
    callsOnlyId = (created.json.strategy as { id: number }).id;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t.close();
  });

  async function listen(caller: Caller) {
    const socket = await connected(openSocket(t.url, caller.token));
    sockets.push(socket);
    return heard(socket);
  }

  async function restInfo(caller: Caller): Promise<StrategyInfoDto> {
    const res = await t.request('GET', '/api/strategy', { token: caller.token });
    expect(res.status).toBe(200);
    return res.json as unknown as StrategyInfoDto;
  }

  it('a trader who picks a strategy hears it; every admin change reaches each trader as GET /api/strategy reads', async () => {
    const follows = await listen(follower);
    const chooses = await listen(chooser);

    const picked = await t.request('PUT', '/api/user/trading-settings', {
      token: chooser.token,
      body: { orderType: 'SLM', targetSetting: 40, tradeQuantity: 1, strategyId: callsOnlyId },
    });
    expect(picked.status).toBe(200);
    const own = await chooses.next();
    expect(own.name).toBe('Consecutive-candle breakout: Calls only');
    expect(own).toEqual(await restInfo(chooser));

    // Nothing changed: no event. The next change is the first thing either socket hears (events keep their order).
    await t.server.deps.trading.reloadControls();

    const stop = await t.request('PUT', '/api/admin/control/stopLoss', {
      token: admin.token,
      body: { value: 25 },
    });
    expect(stop.status).toBe(200);
    const afterStop = await follows.next();
    expect(afterStop.params.stopLoss).toBe(25);
    expect(afterStop.rules.join(' ')).toContain('stop loss 25 points');
    expect(afterStop).toEqual(await restInfo(follower));
    // The trader on another strategy keeps its own stop loss, and hears the change of the set all the same.
    expect((await chooses.next()).params.stopLoss).toBe(15);

    const put = await t.request('PUT', '/api/admin/control/putEnabled', {
      token: admin.token,
      body: { value: false },
    });
    expect(put.status).toBe(200);
    const afterPut = await follows.next();
    expect(afterPut.params.putEnabled).toBe(false);
    expect(afterPut.rules).toContain('PUT signals are currently switched off.');
    await chooses.next();

    const paused = await t.request('POST', '/api/admin/trading/pause', { token: admin.token });
    expect(paused.status).toBe(200);
    const afterPause = await follows.next();
    expect(afterPause.params.tradingEnabled).toBe(false);
    expect(afterPause.rules.join(' ')).toContain('Trading is paused');
    expect((await chooses.next()).params.tradingEnabled).toBe(false);

    const edited = await t.request('PATCH', `/api/admin/strategies/${callsOnlyId}`, {
      token: admin.token,
      body: { parameters: { stopLoss: 18 } },
    });
    expect(edited.status).toBe(200);
    const afterEdit = await chooses.next();
    expect(afterEdit.params.stopLoss).toBe(18);
    expect(afterEdit).toEqual(await restInfo(chooser));
    expect((await follows.next()).params.stopLoss).toBe(25);

    const resumed = await t.request('POST', '/api/admin/trading/resume', { token: admin.token });
    expect(resumed.status).toBe(200);
    expect((await follows.next()).params.tradingEnabled).toBe(true);
    expect((await chooses.next()).params.tradingEnabled).toBe(true);
  });

  it('a refused value changes nothing and sends nothing', async () => {
    const follows = await listen(follower);
    const bad = await t.request('PUT', '/api/admin/control/stopLoss', {
      token: admin.token,
      body: { value: 0 },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.field).toBe('value');
    const good = await t.request('PUT', '/api/admin/control/target', {
      token: admin.token,
      body: { value: 35 },
    });
    expect(good.status).toBe(200);
    // The first event is the accepted change, with the stop loss as it was.
    const info = await follows.next();
    expect(info.params).toMatchObject({ target: 35, stopLoss: 25 });
  });
});
