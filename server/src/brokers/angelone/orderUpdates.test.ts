import { afterEach, describe, expect, it } from 'vitest';
import { asyncScheduler } from 'rxjs';
import type { BrokerOrderSnapshot } from '@optionpilot/engine';
import { startAngelFake, type AngelFake } from '../../../../test/fakes/angelone/server';
import {
  createAngelOrderUpdates$,
  orderRowOf,
  orderStatusEvents$,
  orderStatusSocketUrl,
} from './orderUpdates';
import type { AngelOrderRow } from './wire';

const ACCOUNT = {
  apiKey: 'updkey1',
  clientCode: 'U1234567',
  mpin: '1111',
  totpSecret: 'ONSWG4TFORXW45DFON2A',
  name: 'U',
};

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let fake: AngelFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('Angel order updates', () => {
  it('finds the order-status socket on its own host in production, on the root otherwise', () => {
    expect(orderStatusSocketUrl('wss://smartapisocket.angelone.in')).toBe(
      'wss://tns.angelone.in/smart-order-update',
    );
    expect(orderStatusSocketUrl('ws://127.0.0.1:4000')).toBe('ws://127.0.0.1:4000/smart-order-update');
  });

  it('reads an order transition, and skips the AB00 acknowledgement, pong and junk', () => {
    expect(orderRowOf('{"order-status":"AB00","orderData":{"orderid":""}}')).toBeUndefined();
    expect(orderRowOf('pong')).toBeUndefined();
    expect(
      orderRowOf(
        '{"order-status":"AB05","orderData":{"orderid":"1","status":"complete","filledshares":"65"}}',
      ),
    ).toMatchObject({
      orderid: '1',
      filledshares: 65,
    });
  });

  it('passes socket updates once each, and polls the order book while the socket is down', async () => {
    fake = await startAngelFake({ accounts: [ACCOUNT] });
    const { jwt, feedToken } = fake.issueSession(ACCOUNT.clientCode);
    let polls = 0;
    const book: AngelOrderRow[] = [];
    const seen: BrokerOrderSnapshot[] = [];
    const updates$ = createAngelOrderUpdates$({
      events$: orderStatusEvents$({
        url: orderStatusSocketUrl(fake.wsUrl),
        headers: {
          Authorization: `Bearer ${jwt}`,
          'x-api-key': ACCOUNT.apiKey,
          'x-client-code': ACCOUNT.clientCode,
          'x-feed-token': feedToken,
        },
        backoffMs: [50],
        scheduler: asyncScheduler,
      }),
      orderBook: () => {
        polls += 1;
        return Promise.resolve(book);
      },
      now: Date.now,
      scheduler: asyncScheduler,
      pollIntervalMs: 30,
    });
    const subscription = updates$.subscribe((s) => seen.push(s));
    try {
      await until(() => fake!.sockets.orderConnections(ACCOUNT.clientCode) === 1, 'the socket');
      const order = fake.placeByHand(ACCOUNT.clientCode, {
        symbolToken: '45003',
        side: 'BUY',
        quantity: 65,
        price: 100,
      });
      fake.sockets.pushOrder(ACCOUNT.clientCode, order);
      fake.sockets.pushOrder(ACCOUNT.clientCode, order);
      await until(() => seen.length === 1, 'the pushed update');
      expect(seen[0]).toMatchObject({ brokerOrderId: order.orderid, status: 'FILLED', filledQty: 65 });

      // Angel logs the account out: the socket is refused, the order book polled meanwhile.
      const before = polls;
      fake.expireSessions();
      await until(() => polls > before + 2, 'polling while down');
      expect(fake.sockets.handshakes.refused).toBeGreaterThan(0);
    } finally {
      subscription.unsubscribe();
    }
    expect(seen).toHaveLength(1);
  });
});
