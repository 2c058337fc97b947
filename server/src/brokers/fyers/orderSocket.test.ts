import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { fyersOrderSocket$, orderRowsOfFrame } from './orderSocket';
import { toSnapshot } from './wire';

const order = (status: number, filled: number) =>
  JSON.stringify({
    orders: {
      client_id: 'XA01234',
      id: '26112400001',
      qty: 130,
      qty_filled: filled,
      qty_remaining: 130 - filled,
      price_limit: 120.5,
      price_stop: 0,
      price_traded: filled > 0 ? 120.45 : 0,
      ord_type: 1,
      tran_side: 1,
      symbol: 'NSE:NIFTY26D0124000CE',
      ord_status: status,
      ordertag: 'OPALGOOPmis0a1b2001x7k',
      oms_msg: 'whatever the OMS said',
    },
  });

describe('orderRowsOfFrame', () => {
  it('maps the socket’s exchange-level statuses as the official client does', () => {
    const snapshot = (frame: string) => toSnapshot(orderRowsOfFrame(frame)[0]!, 7);
    expect(snapshot(order(11, 0))).toEqual({
      clientOrderId: 'OP-mis0a1b2-001-x7k',
      brokerOrderId: '26112400001',
      status: 'ACCEPTED',
      filledQty: 0,
      avgPrice: 0,
      time: 7,
    });
    expect(snapshot(order(22, 65))).toMatchObject({
      status: 'PARTIALLY_FILLED',
      filledQty: 65,
      avgPrice: 120.45,
    });
    expect(snapshot(order(90, 130))).toMatchObject({ status: 'FILLED', filledQty: 130 });
    expect(snapshot(order(91, 0))).toMatchObject({ status: 'CANCELLED' });
    const rejected = snapshot(order(92, 0));
    expect(rejected).toMatchObject({ status: 'REJECTED', reason: 'fyers status 5' });
    expect(JSON.stringify(rejected)).not.toContain('OMS said');
  });

  it('yields nothing for pongs, acknowledgements, trades, positions and malformed frames', () => {
    expect(orderRowsOfFrame('pong')).toEqual([]);
    expect(orderRowsOfFrame('{"s":"ok","code":1605,"message":"Successfully subscribed"}')).toEqual([]);
    expect(orderRowsOfFrame('{"trades":{"id":"1"}}')).toEqual([]);
    expect(orderRowsOfFrame('{"orders":{"id":1}}')).toEqual([]);
    expect(orderRowsOfFrame('{not json')).toEqual([]);
  });
});

describe('fyersOrderSocket$', () => {
  it('subscribes with the Authorization header, and drops a silent socket for a new one', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const seen: { authorization?: string; messages: string[] }[] = [];
    // A server that takes the subscription and then never says anything again: not even "pong".
    server.on('connection', (ws, req) => {
      const entry = { authorization: req.headers.authorization, messages: [] as string[] };
      seen.push(entry);
      ws.on('message', (data) => entry.messages.push(String(data)));
    });
    const port = (server.address() as { port: number }).port;
    const events: string[] = [];
    const subscription = fyersOrderSocket$({
      wsRoot: `ws://127.0.0.1:${port}`,
      authorization: 'APP-100:tok',
      backoffMs: [10],
      scheduler: asyncScheduler,
      pingMs: 20,
      silenceMs: 50,
    }).subscribe((event) => events.push(event.type));
    try {
      // The server sees the second connection before the client's own `open` (the second `up`) has run.
      await new Promise<void>((resolve) => {
        const check = () => (seen.length >= 2 && events.length >= 4 ? resolve() : setTimeout(check, 10));
        check();
      });
      expect(seen[0]?.authorization).toBe('APP-100:tok');
      expect(JSON.parse(seen[0]?.messages[0] ?? '{}')).toEqual({ T: 'SUB_ORD', SLIST: ['orders'], SUB_T: 1 });
      expect(seen[0]?.messages).toContain('ping');
      expect(events.slice(0, 4)).toEqual(['down', 'up', 'down', 'up']);
    } finally {
      subscription.unsubscribe();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
