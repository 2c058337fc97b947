import { afterEach, describe, expect, it } from 'vitest';
import type { Broker, BrokerOrderSnapshot } from '@optionpilot/engine';
import { startGrowwFake, type GrowwFake } from '../../../../test/fakes/groww/server';
import { growwReference } from './broker';
import { growwModule } from './index';
import { GrowwOrderRows } from './orderUpdates';
import { growwOrderSchema } from './wire';
import { waitUntil } from '../../testing/waitUntil';

const ACCOUNT = { apiKey: 'key-1', apiSecret: 'secret-1', totpSecret: 'JBSWY3DPEHPK3PXP', ucc: '924189' };
const REFERENCE = growwReference('OP', 'OP-mwwuxyva-000-a01');

const row = (id: string, status: string, filled: number, reference: string | null = REFERENCE) =>
  growwOrderSchema.parse({
    groww_order_id: id,
    trading_symbol: 'NIFTY01DEC2624000CE',
    order_status: status,
    quantity: 65,
    filled_quantity: filled,
    average_fill_price: filled > 0 ? 120 : 0,
    order_reference_id: reference,
    created_at: '2026-11-26T09:20:00',
  });

let fake: GrowwFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('GrowwOrderRows', () => {
  it('completes a pushed update from the order list read before, else from the order’s detail (once)', async () => {
    const details: string[] = [];
    const rows = new GrowwOrderRows({
      orderList: () => Promise.resolve([row('GMK1', 'OPEN', 0)]),
      orderDetail: (id) => {
        details.push(id);
        return Promise.resolve(id === 'GMK2' ? row('GMK2', 'OPEN', 0, 'OP-other0000000001') : undefined);
      },
      placed: (id) => (id === 'GMK3' ? row('GMK3', 'OPEN', 0, 'OP-placed000000001') : undefined),
    });
    await rows.orderList();
    const pushed = { ...row('GMK1', 'EXECUTED', 65, null), trading_symbol: null, created_at: null };
    expect(await rows.complete(pushed)).toMatchObject({
      order_reference_id: REFERENCE,
      trading_symbol: 'NIFTY01DEC2624000CE',
      order_status: 'EXECUTED',
      filled_quantity: 65,
      created_at: null,
    });
    expect(details).toEqual([]);
    await rows.complete({ ...pushed, groww_order_id: 'GMK2' });
    // An order the adapter placed: completed from its placement, no detail.
    expect(await rows.complete({ ...pushed, groww_order_id: 'GMK3' })).toMatchObject({
      order_reference_id: 'OP-placed000000001',
    });
    expect(await rows.complete({ ...pushed, groww_order_id: 'GMK2' })).toMatchObject({
      order_reference_id: 'OP-other0000000001',
    });
    expect(details).toEqual(['GMK2']);
    expect(await rows.complete({ ...pushed, groww_order_id: 'NOPE' })).toBeUndefined();
  });
});

describe('Groww order updates (pushed on the socket)', () => {
  async function adapter(): Promise<{ fake: GrowwFake; broker: Broker; seen: BrokerOrderSnapshot[] }> {
    fake = await startGrowwFake({ accounts: [ACCOUNT] });
    // A poll interval far longer than the test: what arrives was pushed.
    const module = growwModule(
      { endpoints: fake.endpoints, algoTag: 'OP', now: () => Date.now() },
      { pollIntervalMs: 600_000, backoffMs: [20] },
    );
    const session = {
      accessToken: fake.issueToken(ACCOUNT.apiKey),
      expiresAt: 0,
      accountId: '924189',
      accountName: '',
    };
    const broker = module.createBroker({ credentials: ACCOUNT, session });
    const seen: BrokerOrderSnapshot[] = [];
    broker.orderUpdates$.subscribe((s) => seen.push(s));
    return { fake, broker, seen };
  }
  const listCalls = (f: GrowwFake) => f.requests.filter((r) => r.path === '/v1/order/list').length;

  it('passes each transition as Groww pushes it, without polling the order list', async () => {
    const { fake, broker, seen } = await adapter();
    await waitUntil(() => fake.socket.connections === 1 && listCalls(fake) > 0);
    await new Promise((r) => setTimeout(r, 100));
    const reads = listCalls(fake);
    const { brokerOrderId } = await broker.placeOrder({
      clientOrderId: 'OP-mwwuxyva-000-a01',
      symbol: 'NIFTY01DEC2624000CE',
      side: 'BUY',
      quantity: 130,
      type: 'LIMIT',
      price: 120,
      product: 'MIS',
      tag: 'OP',
    });
    await waitUntil(() => seen.some((s) => s.status === 'ACCEPTED'));
    await fake.fill(brokerOrderId, 119.5, 65);
    await waitUntil(() => seen.some((s) => s.status === 'PARTIALLY_FILLED'));
    await fake.fill(brokerOrderId, 120.5);
    await waitUntil(() => seen.some((s) => s.status === 'FILLED'));
    expect(seen.map((s) => `${s.status}/${s.filledQty}`)).toEqual([
      'ACCEPTED/0',
      'PARTIALLY_FILLED/65',
      'FILLED/130',
    ]);
    expect(seen[2]).toMatchObject({ clientOrderId: 'OP-mwwuxyva-000-a01', brokerOrderId, avgPrice: 120 });
    // The list was read as the socket came up; nothing polled since, and the order's reference was known from its
    // placement (no detail asked).
    expect(listCalls(fake)).toBe(reads);
    expect(fake.requests.filter((r) => r.path.startsWith('/v1/order/detail/'))).toHaveLength(0);
    expect(fake.socket.pushes).toBe(3);
  });

  it('reads the order list when the socket drops and once it is back, so a fill meanwhile is not missed', async () => {
    const { fake, broker, seen } = await adapter();
    await waitUntil(() => fake.socket.connections === 1);
    const { brokerOrderId } = await broker.placeOrder({
      clientOrderId: 'OP-mwwuxyva-000-a01',
      symbol: 'NIFTY01DEC2624000CE',
      side: 'BUY',
      quantity: 65,
      type: 'LIMIT',
      price: 120,
      product: 'MIS',
      tag: 'OP',
    });
    await waitUntil(() => seen.length === 1);
    const reads = listCalls(fake);
    fake.inject('drop_socket');
    // Filled while nobody listens: no push reaches us.
    fake.book.onChange = undefined;
    await fake.fill(brokerOrderId, 120);
    await waitUntil(() => seen.some((s) => s.status === 'FILLED'));
    await waitUntil(() => fake.socket.connections === 2);
    expect(listCalls(fake)).toBeGreaterThan(reads);
    expect(seen.filter((s) => s.status === 'FILLED')).toHaveLength(1);
  });
});
