import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toAlphanumericId } from '@optionpilot/engine';
import { startDhanFake, type DhanFake } from '../../../../test/fakes/dhan/server';
import type { DhanBroker } from './broker';
import { dhanModule } from './index';

const ACCOUNT = { clientId: '1000000042', name: 'Ravi Das', appId: 'app42', appSecret: 'secret42' };
const ORDER = {
  clientOrderId: 'OP-mhx0z2k1-001-abc',
  symbol: 'NIFTY01DEC2624000CE',
  side: 'BUY' as const,
  quantity: 65,
  product: 'MIS' as const,
  tag: 'OPALGO',
};

describe('DhanBroker', () => {
  let fake: DhanFake;
  let broker: DhanBroker;
  beforeEach(async () => {
    fake = await startDhanFake({ accounts: [ACCOUNT] });
    const module = dhanModule({ endpoints: fake.endpoints, algoTag: 'OPTIONPILOTALGO', now: Date.now });
    const credentials = { apiKey: `${ACCOUNT.clientId}:${ACCOUNT.appId}`, apiSecret: ACCOUNT.appSecret };
    const session = await module.formLogin!.complete({
      credentials,
      values: { clientId: ACCOUNT.clientId, accessToken: fake.issueToken(ACCOUNT.clientId) },
    });
    broker = module.createBroker({ credentials, session }) as DhanBroker;
  });
  afterEach(() => fake.close());

  it('places a limit order by security id with the algo tag cut to fit before the whole client order id', async () => {
    const { brokerOrderId } = await broker.placeOrder({ ...ORDER, type: 'LIMIT', price: 120.05 });
    const [order] = fake.book.all();
    expect(order).toMatchObject({
      orderId: brokerOrderId,
      orderType: 'LIMIT',
      price: 120.05,
      productType: 'INTRADAY',
    });
    expect(order?.securityId).toBe(
      fake.instruments.find((i) => i.strike === 24_000 && i.optionType === 'CE')?.securityId,
    );
    expect(order?.correlationId).toBe(`OPTIONPIL${toAlphanumericId(ORDER.clientOrderId)}`);
    expect(order?.correlationId.length).toBe(25);
  });

  it('rests a stop as STOP_LOSS with its trigger, modifies it (trailing) and cancels it', async () => {
    const { brokerOrderId } = await broker.placeOrder({
      ...ORDER,
      side: 'SELL',
      type: 'SL',
      price: 99,
      triggerPrice: 100,
    });
    await broker.modifyOrder(brokerOrderId, { price: 104, triggerPrice: 105 });
    expect(fake.book.get(brokerOrderId)).toMatchObject({
      orderType: 'STOP_LOSS',
      price: 104,
      triggerPrice: 105,
    });
    await broker.cancelOrder(brokerOrderId);
    expect(await broker.getOrder({ brokerOrderId })).toMatchObject({ status: 'CANCELLED' });
  });

  it('finds a placement whose answer was lost by its correlation id, and under another ALGO_TAG by the order book', async () => {
    const { brokerOrderId } = await broker.placeOrder({ ...ORDER, type: 'LIMIT', price: 120 });
    expect(await broker.getOrder({ clientOrderId: ORDER.clientOrderId })).toMatchObject({
      brokerOrderId,
      clientOrderId: ORDER.clientOrderId,
      status: 'ACCEPTED',
    });
    const renamed = dhanModule({ endpoints: fake.endpoints, algoTag: 'NEWTAG', now: Date.now });
    const credentials = { apiKey: `${ACCOUNT.clientId}:${ACCOUNT.appId}`, apiSecret: ACCOUNT.appSecret };
    const session = await renamed.formLogin!.complete({
      credentials,
      values: { clientId: ACCOUNT.clientId, accessToken: fake.issueToken(ACCOUNT.clientId) },
    });
    const after = renamed.createBroker({ credentials, session });
    expect(await after.getOrder({ clientOrderId: ORDER.clientOrderId })).toMatchObject({ brokerOrderId });
    expect(await after.getOrder({ clientOrderId: 'OP-zzzzzzzz-009-zzz' })).toBeUndefined();
  });

  it('never sends an unprotected MARKET or SL-M order', async () => {
    await expect(broker.placeOrder({ ...ORDER, type: 'MARKET' })).rejects.toMatchObject({
      kind: 'rejected',
      code: 'UNPROTECTED',
    });
    await expect(broker.placeOrder({ ...ORDER, type: 'SL-M', triggerPrice: 100 })).rejects.toMatchObject({
      kind: 'rejected',
    });
    expect(fake.orderRequests.placements).toBe(0);
  });

  it('refuses a symbol missing from the scrip master without asking Dhan', async () => {
    await expect(
      broker.placeOrder({ ...ORDER, symbol: 'NIFTY01DEC2630000CE', type: 'LIMIT', price: 1 }),
    ).rejects.toMatchObject({
      code: 'UNKNOWN_INSTRUMENT',
    });
    expect(fake.orderRequests.placements).toBe(0);
  });

  it('reports the fund limit in paise', async () => {
    expect(await broker.funds()).toEqual({ netPaise: 25_000_000, availableCashPaise: 25_000_000 });
  });

  it("arms Dhan's P&L exit and kill switch when the daily loss lock fires", async () => {
    expect(await broker.onDailyLossLock()).toEqual({ pnlExit: true, killSwitch: true });
    expect(fake.safetyCalls.map((c) => c.path)).toEqual([
      '/v2/pnlExit',
      '/v2/killswitch?killSwitchStatus=ACTIVATE',
    ]);
    expect(fake.safetyCalls[0]?.body).toMatchObject({ productType: ['INTRADAY'], enableKillSwitch: true });
  });
});
