import { describe, expect, it } from 'vitest';
import type { Broker, BrokerPosition } from '../execution/broker';
import type { PaperBroker } from '../execution/paperBroker';
import { account, at, harness, signalDay } from './testHarness';
import type { Harness } from './testHarness';
import type { RuntimeEvent } from './types';

type Checked = Extract<RuntimeEvent, { kind: 'positions-checked' }>;
type Closed = Extract<RuntimeEvent, { kind: 'trade-closed' }>;

/**
 * A live account whose broker is a paper broker named `zerodha` (it holds positions and resting stops as a broker
 * does); `positionsOverride` replaces what the broker reports, look by look.
 */
function liveAccount(
  positionsOverride?: (real: readonly BrokerPosition[], look: number) => BrokerPosition[],
) {
  let broker: PaperBroker | undefined;
  let builds = 0;
  let looks = 0;
  const h = harness({
    accounts: [{ ...account('live'), paper: false, brokerKey: 'zerodha:AB1234:1' }],
    // Every build (a reconnect's new session) reaches the same account at the broker: one book.
    brokers: (_id, paper) => {
      builds += 1;
      broker ??= paper({ name: 'zerodha' }) as PaperBroker;
      if (positionsOverride === undefined) return broker;
      const real = broker.getPositions.bind(broker);
      return {
        ...broker,
        capabilities: broker.capabilities,
        orderUpdates$: broker.orderUpdates$,
        placeOrder: broker.placeOrder.bind(broker),
        modifyOrder: broker.modifyOrder.bind(broker),
        cancelOrder: broker.cancelOrder.bind(broker),
        getOrder: broker.getOrder.bind(broker),
        getPositions: async () => positionsOverride(await real(), (looks += 1)),
      } satisfies Broker;
    },
  });
  return { h, builds: () => builds, broker: () => broker as PaperBroker };
}

async function enterOnce(h: Harness): Promise<{ positionId: string; symbol: string; quantity: number }> {
  for (const tick of signalDay().filter((t) => t.time <= at('09:17:30'))) await h.push(tick);
  await h.runtime.idle();
  const [position] = h.runtime.positions('live');
  if (position === undefined) throw new Error('no entry');
  return position;
}

/** Runs a check while engine time passes (the second look waits 3 s). */
async function check(h: Harness, run: () => Promise<void>): Promise<Checked | undefined> {
  const done = run();
  await h.wait(h.now() + 5_000);
  await done;
  await h.runtime.idle();
  return h.events.filter((e): e is Checked => e.kind === 'positions-checked').at(-1);
}

describe('TradingRuntime: positions reconciled with the broker', () => {
  it('a position sold by hand at the broker is closed in OptionPilot (broker wins), its stop taken off first', async () => {
    const { h, broker } = liveAccount();
    const position = await enterOnce(h);
    const stop = h.runtime.router.listOrders().find((o) => o.purpose === 'stop');
    expect(stop?.state).toBe('ACCEPTED');
    // The trader sells it in the broker's app: OptionPilot hears nothing of an order that is not its own.
    await broker().placeOrder({
      clientOrderId: 'by-hand',
      symbol: position.symbol,
      side: 'SELL',
      type: 'MARKET',
      quantity: position.quantity,
      product: 'MIS',
      tag: 'manual',
    });

    const checked = await check(h, () => h.runtime.reconcilePositions('live'));

    expect(checked).toMatchObject({
      accountId: 'live',
      broker: 'zerodha',
      differences: [
        {
          symbol: position.symbol,
          optionPilot: position.quantity,
          broker: 0,
          action: 'closed',
          closeIds: [position.positionId],
        },
      ],
    });
    const closed = h.events.filter((e): e is Closed => e.kind === 'trade-closed');
    expect(closed.map((e) => e.close.reason)).toEqual(['BROKER']);
    expect(closed[0]?.close.orderIds).toEqual([]);
    expect(h.runtime.positions('live')).toEqual([]);
    // The resting stop came off, so it can never sell a position that is gone: the broker stays flat, not short.
    expect(h.runtime.router.getOrder(stop!.clientOrderId)?.state).toBe('CANCELLED');
    expect(h.runtime.router.listOrders().some((o) => o.purpose === 'exit')).toBe(false);
    expect((await broker().getPositions()).every((p) => p.quantity === 0)).toBe(true);
  });

  it('what the broker holds beyond OptionPilot is reported and never adopted or traded', async () => {
    const { h, broker } = liveAccount();
    const position = await enterOnce(h);
    await broker().placeOrder({
      clientOrderId: 'by-hand',
      symbol: position.symbol,
      side: 'BUY',
      type: 'MARKET',
      quantity: position.quantity,
      product: 'MIS',
      tag: 'manual',
    });
    const ordersBefore = h.runtime.router.listOrders().length;

    const checked = await check(h, () => h.runtime.reconcilePositions('live'));

    expect(checked?.differences).toEqual([
      {
        symbol: position.symbol,
        optionPilot: position.quantity,
        broker: 2 * position.quantity,
        action: 'not_managed',
        closeIds: [],
      },
    ]);
    expect(h.runtime.positions('live')).toHaveLength(1);
    expect(h.runtime.router.listOrders()).toHaveLength(ordersBefore);
  });

  it('a difference the second look does not confirm (a fill booked late) changes nothing', async () => {
    const { h } = liveAccount((real, look) => (look === 1 ? [] : [...real]));
    await enterOnce(h);

    const checked = await check(h, () => h.runtime.reconcilePositions('live'));

    expect(checked?.differences).toEqual([]);
    expect(h.runtime.positions('live')).toHaveLength(1);
    expect(h.events.some((e) => e.kind === 'trade-closed')).toBe(false);
  });

  it('a reconnect builds the account’s broker again over the new session and reconciles it', async () => {
    const { h, builds, broker } = liveAccount();
    const position = await enterOnce(h);
    expect(builds()).toBe(1);
    // Overnight the broker's risk desk squared the position off while OptionPilot's session had expired.
    await broker().placeOrder({
      clientOrderId: 'rms-square-off',
      symbol: position.symbol,
      side: 'SELL',
      type: 'MARKET',
      quantity: position.quantity,
      product: 'MIS',
      tag: 'rms',
    });

    const checked = await check(h, () => h.runtime.sessionChanged('live'));

    expect(builds()).toBe(2);
    expect(checked?.differences).toMatchObject([{ action: 'closed', closeIds: [position.positionId] }]);
    expect(h.runtime.positions('live')).toEqual([]);
  });

  it('paper accounts are never reconciled (the paper broker is OptionPilot’s own book)', async () => {
    const h = harness({ accounts: [account('a')] });
    for (const tick of signalDay().filter((t) => t.time <= at('09:17:30'))) await h.push(tick);
    await h.runtime.idle();
    await h.runtime.reconcilePositions('a');
    await h.runtime.sessionChanged('a');
    expect(h.events.some((e) => e.kind === 'positions-checked')).toBe(false);
    expect(h.runtime.positions('a')).toHaveLength(1);
  });
});
