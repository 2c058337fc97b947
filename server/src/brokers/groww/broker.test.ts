import { afterEach, describe, expect, it } from 'vitest';
import type { OrderRequest } from '@optionpilot/engine';
import { startGrowwFake, type GrowwFake } from '../../../../test/fakes/groww/server';
import type { Broker } from '@optionpilot/engine';
import { GrowwBroker, growwReference } from './broker';
import { growwModule } from './index';
import { waitUntil } from '../../testing/waitUntil';

const ACCOUNT = { apiKey: 'key-1', apiSecret: 'secret-1', totpSecret: 'JBSWY3DPEHPK3PXP', ucc: '924189' };
const SYMBOL = 'NIFTY01DEC2624000CE';

let fake: GrowwFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function adapter(): Promise<{ fake: GrowwFake; broker: Broker }> {
  fake = await startGrowwFake({ accounts: [ACCOUNT] });
  const module = growwModule(
    { endpoints: fake.endpoints, algoTag: 'OP ALGO!', now: () => Date.now() },
    { pollIntervalMs: 50 },
  );
  const session = {
    accessToken: fake.issueToken(ACCOUNT.apiKey),
    expiresAt: 0,
    accountId: '924189',
    accountName: '',
  };
  return { fake, broker: module.createBroker({ credentials: ACCOUNT, session }) };
}

const order = (id: string, over: Partial<OrderRequest> = {}): OrderRequest => ({
  clientOrderId: id,
  symbol: SYMBOL,
  side: 'BUY',
  type: 'LIMIT',
  price: 120,
  quantity: 65,
  product: 'MIS',
  tag: 'OPALGO',
  ...over,
});

describe('GrowwBroker', () => {
  it('fits the algo tag and the whole client order id into Groww’s 8–20 character reference', () => {
    const reference = growwReference('OP ALGO!', 'OP-mwwuxyva-000-i2w');
    expect(reference).toMatch(/^OPA-[A-Za-z0-9]{16}$/);
    expect(growwReference('', 'OP-mwwuxyva-000-i2w')).toHaveLength(16);
  });

  it('refuses raw MARKET and SL-M orders and unknown symbols without sending anything', async () => {
    const { fake, broker } = await adapter();
    for (const type of ['MARKET', 'SL-M'] as const) {
      await expect(broker.placeOrder(order('OP-mwwuxyva-000-a01', { type }))).rejects.toMatchObject({
        kind: 'rejected',
        code: 'UNPROTECTED',
      });
    }
    await expect(
      broker.placeOrder(order('OP-mwwuxyva-000-a02', { symbol: 'NIFTY01DEC2699000CE' })),
    ).rejects.toMatchObject({ kind: 'rejected', code: 'UNKNOWN_INSTRUMENT' });
    expect(fake.orderRequests.placements).toBe(0);
  });

  it('rests a stop as SL with its trigger, trails it by modify (type and trigger kept), and cancels it', async () => {
    const { fake, broker } = await adapter();
    const { brokerOrderId } = await broker.placeOrder(
      order('OP-mwwuxyva-000-a03', { side: 'SELL', type: 'SL', price: 95, triggerPrice: 100 }),
    );
    expect(fake.book.get(brokerOrderId)).toMatchObject({
      order_type: 'SL',
      price: 95,
      trigger_price: 100,
      product: 'MIS',
    });
    await broker.modifyOrder(brokerOrderId, { triggerPrice: 104, price: 99 });
    expect(fake.book.get(brokerOrderId)).toMatchObject({
      order_type: 'SL',
      price: 99,
      trigger_price: 104,
      quantity: 65,
    });
    await broker.cancelOrder(brokerOrderId);
    expect(await broker.getOrder({ brokerOrderId })).toMatchObject({ status: 'CANCELLED' });
    expect(await broker.getOrder({ brokerOrderId: 'GMK-none' })).toBeUndefined();
    expect(await broker.getOrder({ clientOrderId: 'OP-mwwuxyva-000-zzz' })).toBeUndefined();
  });

  it('reads every page of the order list and passes only tagged orders, each state once', async () => {
    const { fake, broker } = await adapter();
    const groww = broker as GrowwBroker;
    for (let i = 0; i < 105; i += 1) {
      await broker.placeOrder(order(`OP-mwwuxyva-${String(i).padStart(3, '0')}-abc`));
    }
    expect(await groww.orderList()).toHaveLength(105);
    const first = fake.book.all()[0]!;
    const seen: string[] = [];
    const subscription = broker.orderUpdates$.subscribe((u) => {
      if (u.brokerOrderId === first.groww_order_id) seen.push(`${u.status}/${u.filledQty}`);
    });
    await waitUntil(() => seen.length === 1);
    await fake.fill(first.groww_order_id, 121);
    await waitUntil(() => seen.length === 2);
    await new Promise((r) => setTimeout(r, 200)); // a few more polls: nothing repeats
    subscription.unsubscribe();
    expect(seen).toEqual(['ACCEPTED/0', 'FILLED/65']);
  });

  it('reports net FNO positions on canonical symbols, shorts at their sell price', async () => {
    const { fake, broker } = await adapter();
    const { brokerOrderId } = await broker.placeOrder(
      order('OP-mwwuxyva-000-a04', { side: 'SELL', quantity: 130 }),
    );
    await fake.fill(brokerOrderId, 118.5);
    expect(await broker.getPositions()).toEqual([
      { symbol: SYMBOL, quantity: -130, avgPrice: 118.5, realisedPnl: 0 },
    ]);
  });
});
