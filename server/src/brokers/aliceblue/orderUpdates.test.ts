import { asyncScheduler } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toAlphanumericId } from '@optionpilot/engine';
import { startAliceFake, type AliceFake } from '../../../../test/fakes/aliceblue/server';
import { AliceHttp } from './http';
import { aliceOrderEvents$, type AliceOrderEvent } from './orderUpdates';

const ACCOUNT = { userId: 'ORD01', appCode: 'ordapp', apiSecret: 's', name: 'O' };

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('order messages on the ANT socket', () => {
  let fake: AliceFake;
  beforeEach(async () => {
    fake = await startAliceFake({ accounts: [ACCOUNT] });
  });
  afterEach(() => fake.close());

  it('is down until the login is acknowledged, passes the account’s order messages, and reconnects after a drop', async () => {
    const userSession = fake.issueSession(ACCOUNT.userId);
    const http = new AliceHttp({ apiRoot: fake.url, userId: ACCOUNT.userId, userSession });
    let socketSessions = 0;
    const events: AliceOrderEvent[] = [];
    const subscription = aliceOrderEvents$({
      wsRoot: fake.endpoints.wsRoot,
      tokens: { userId: ACCOUNT.userId, userSession },
      createSocketSession: async () => {
        socketSessions += 1;
        await http.createSocketSession();
      },
      backoffMs: [50],
      scheduler: asyncScheduler,
    }).subscribe((e) => events.push(e));
    try {
      expect(events[0]).toEqual({ type: 'down' });
      await until(() => events.some((e) => e.type === 'up'), 'the login');
      expect(fake.sockets.orderConnections(ACCOUNT.userId)).toBe(1);

      const tag = `OPAL${toAlphanumericId('OP-mhx0z2k1-001-abc')}`;
      const order = fake.book.add({
        userId: ACCOUNT.userId,
        Trantype: 'BUY',
        Prctype: 'L',
        Pcode: 'MIS',
        Trsym: 'NIFTY01DEC26C24000',
        token: '45013',
        Qty: 65,
        Prc: 120,
        Trgprc: 0,
        remarks: tag,
      });
      await fake.fill(order.Nstordno, 120);
      await until(() => events.some((e) => e.type === 'order'), 'the order message');
      const pushed = events.find((e) => e.type === 'order');
      expect(pushed).toMatchObject({
        type: 'order',
        row: { Nstordno: order.Nstordno, Status: 'COMPLETE', Fillshares: 65, Avgprc: 120, remarks: tag },
      });

      const ups = events.filter((e) => e.type === 'up').length;
      fake.inject('drop_socket');
      await until(() => events.filter((e) => e.type === 'up').length > ups, 'the reconnect');
      expect(events.filter((e) => e.type === 'down').length).toBeGreaterThanOrEqual(2);
      // Each connection made its own socket session before logging in.
      expect(socketSessions).toBeGreaterThanOrEqual(2);
    } finally {
      subscription.unsubscribe();
    }
    await until(() => fake.sockets.orderConnections() === 0, 'the socket to close');
  });

  it('stays down (so the order book is polled) on a socket that logs in but never acknowledges the order subscription', async () => {
    fake.sockets.ordersUnsupported = true;
    const userSession = fake.issueSession(ACCOUNT.userId);
    const http = new AliceHttp({ apiRoot: fake.url, userId: ACCOUNT.userId, userSession });
    const events: AliceOrderEvent[] = [];
    const subscription = aliceOrderEvents$({
      wsRoot: fake.endpoints.wsRoot,
      tokens: { userId: ACCOUNT.userId, userSession },
      createSocketSession: () => http.createSocketSession(),
      backoffMs: [50],
      scheduler: asyncScheduler,
    }).subscribe((e) => events.push(e));
    try {
      await until(() => fake.sockets.logins.ok === 1, 'the login');
      // Time for an acknowledgement that never comes.
      await new Promise((r) => setTimeout(r, 200));
      expect(events).toEqual([{ type: 'down' }]);
    } finally {
      subscription.unsubscribe();
    }
  });
});
