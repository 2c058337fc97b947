import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Broker } from '@optionpilot/engine';
import { startAngelFake, type AngelFake } from '../../../../test/fakes/angelone/server';
import { totp } from '../../../../test/fakes/angelone/totp';
import type { BrokerCredentials, BrokerModule, BrokerSession } from '../types';
import type { AngelBroker } from './broker';
import { angeloneModule } from './index';

const ACCOUNT = {
  apiKey: 'brokerkey1',
  clientCode: 'M5748424',
  mpin: '9090',
  totpSecret: 'ONSWG4TFORXW45DFON2A',
  name: 'Mohan Lal',
};
const ORDER = {
  clientOrderId: 'OP-mhx0z2k1-001-abc',
  symbol: 'NIFTY01DEC2624000CE',
  side: 'BUY' as const,
  quantity: 65,
  product: 'MIS' as const,
  tag: 'OPALGO',
};

describe('AngelBroker', () => {
  let fake: AngelFake;
  let module: BrokerModule;
  let login: { credentials: BrokerCredentials; session: BrokerSession };
  let broker: Broker;
  beforeEach(async () => {
    fake = await startAngelFake({ accounts: [ACCOUNT] });
    module = angeloneModule({ endpoints: fake.endpoints, algoTag: 'OPTIONPILOT', now: Date.now });
    const credentials = { apiKey: ACCOUNT.apiKey, apiSecret: 's' };
    const session = await module.formLogin!.complete({
      credentials,
      values: { clientCode: ACCOUNT.clientCode, mpin: ACCOUNT.mpin, totp: totp(ACCOUNT.totpSecret) },
    });
    login = { credentials, session };
    broker = module.createBroker(login);
  });
  afterEach(() => fake.close());

  it('refuses a raw MARKET or SL-M order without sending it (Angel takes no market orders from algos)', async () => {
    await expect(broker.placeOrder({ ...ORDER, type: 'MARKET' })).rejects.toMatchObject({
      kind: 'rejected',
      code: 'UNPROTECTED',
    });
    await expect(broker.placeOrder({ ...ORDER, type: 'SL-M', triggerPrice: 90 })).rejects.toMatchObject({
      code: 'UNPROTECTED',
    });
    expect(fake.orderRequests.placements).toBe(0);
  });

  it('places a limit with symboltoken and ordertag, and a stop as STOPLOSS / STOPLOSS_LIMIT', async () => {
    const { brokerOrderId } = await broker.placeOrder({ ...ORDER, type: 'LIMIT', price: 120.35 });
    const stop = await broker.placeOrder({
      ...ORDER,
      clientOrderId: 'OP-mhx0z2k1-002-abc',
      side: 'SELL',
      type: 'SL',
      price: 95,
      triggerPrice: 100,
    });
    const [entry, resting] = fake.book.all();
    expect(entry).toMatchObject({
      orderid: brokerOrderId,
      variety: 'NORMAL',
      ordertype: 'LIMIT',
      price: 120.35,
      symboltoken: '45013',
      producttype: 'INTRADAY',
    });
    expect(entry?.ordertag).toHaveLength(19);
    expect(entry?.ordertag.startsWith('OPT')).toBe(true);
    expect(resting).toMatchObject({
      orderid: stop.brokerOrderId,
      variety: 'STOPLOSS',
      ordertype: 'STOPLOSS_LIMIT',
      triggerprice: 100,
      status: 'trigger pending',
    });
    // This process placed it: its status comes from details/{uniqueorderid}.
    expect(await broker.getOrder({ brokerOrderId })).toMatchObject({
      status: 'ACCEPTED',
      clientOrderId: ORDER.clientOrderId,
    });
    expect(fake.requests.some((r) => r.path.includes('/order/v1/details/'))).toBe(true);
  });

  it('after a restart modifies and cancels orders placed by the earlier process, reading them from the order book', async () => {
    const stop = await broker.placeOrder({
      ...ORDER,
      side: 'SELL',
      type: 'SL',
      price: 95,
      triggerPrice: 100,
    });
    const restarted = module.createBroker(login);
    expect(await restarted.getOrder({ brokerOrderId: stop.brokerOrderId })).toMatchObject({
      status: 'ACCEPTED',
    });
    await restarted.modifyOrder(stop.brokerOrderId, { triggerPrice: 104, price: 99 });
    expect(fake.book.get(stop.brokerOrderId)?.order).toMatchObject({
      triggerprice: 104,
      price: 99,
      variety: 'STOPLOSS',
    });
    await restarted.cancelOrder(stop.brokerOrderId);
    expect(fake.book.get(stop.brokerOrderId)?.order.status).toBe('cancelled');
    expect(await restarted.getOrder({ brokerOrderId: 'no-such-order' })).toBeUndefined();
    await expect(restarted.cancelOrder('no-such-order')).rejects.toMatchObject({
      kind: 'rejected',
      code: 'AB1013',
    });
  });

  it('reports positions by canonical symbol, funds in paise and the trade book', async () => {
    const angel = broker as AngelBroker;
    const { brokerOrderId } = await broker.placeOrder({ ...ORDER, type: 'LIMIT', price: 120 });
    await fake.fill(brokerOrderId, 120);
    expect(await broker.getPositions()).toEqual([
      { symbol: 'NIFTY01DEC2624000CE', quantity: 65, avgPrice: 120, realisedPnl: 0 },
    ]);
    expect(await angel.funds()).toEqual({ netPaise: 25_000_000, availableCashPaise: 25_000_000 });
    expect(await angel.tradeBook()).toEqual([
      expect.objectContaining({ orderid: brokerOrderId, fillprice: 120, fillsize: 65 }),
    ]);
  });
});
