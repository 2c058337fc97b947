// The live-trading scenarios every broker that keeps its stop resting at the broker must pass, written once. A
// broker's test file starts its fake, describes it here (`LiveBroker`: how a trader connects, and the fake's orders
// in the scenarios' words), keeps its own wire-format tests, and calls `sharedScenarios()` inside its describe:
// - an exit OptionPilot decides takes the resting stop off first, then sells once;
// - a stop the broker fills by itself closes the trade on that fill, with no other order;
// - after a restart the stop is found resting, not placed again, and still closes the trade;
// - a position the trader sold by hand while OptionPilot was down is closed by reconciliation, shown on the trader's
//   card and in the admins' audit log;
// - the end of the broker's session turns the card to Session expired with the fixed message;
// - an order refused for the server's IP blocks the account at once (card, socket event and audit log name
//   EGRESS_IP); entries go to paper until the trader resumes.
import { expect, it, vi } from 'vitest';
import type { BrokerType } from '../../server/src/contract/dto';
import { findBrokerAccountByUser, listOrders, listTrades } from '../../server/src/db';
import { presentBrokerConnection } from '../../server/src/presenters/broker';
import {
  callSetup,
  dataDir,
  MINUTE,
  startHarness,
  SYMBOL,
  T0,
  type Harness,
} from '../integration/scriptedServer';
import { goLive, subscribedTrader } from './liveTrading';
import { api, untilSettled } from './waiting';

/** An order at a broker's fake, in the words the scenarios need (each fake names these fields its own way). */
export interface FakeOrder {
  readonly id: string;
  readonly side: 'BUY' | 'SELL';
  /** the broker's plain limit order type (not a stop) */
  readonly limit: boolean;
  readonly state: 'resting' | 'filled' | 'cancelled' | 'other';
  readonly quantity: number;
  readonly filledQuantity: number;
}

/** What every broker fake offers the scenarios. */
export interface LiveFake {
  readonly orderRequests: { readonly placements: number };
  inject(fault: 'ip_not_allowed'): void;
  fill(orderId: string, price: number): Promise<unknown>;
  expireSessions(): void;
}

export interface LiveBroker<Account> {
  /** the broker as stored on orders and broker accounts */
  readonly brokerType: BrokerType;
  /** how the test titles name the broker, e.g. "Dhan", "ANT" */
  readonly name: string;
  /** the EGRESS_IP in `env()`, which a refusal for the server's IP must name */
  readonly egressIp: string;
  /** the fake, started by the test file's beforeAll (read when a test runs) */
  fake(): LiveFake;
  /** the server's settings pointing the adapter at the fake */
  env(): Record<string, string>;
  /** an account of its own at the fake per test, so one test's positions never count in another's */
  newAccount(name: string): Account;
  /** connects the signed-up trader's broker account (over HTTP as the trader would, where the login allows) */
  connect(h: Harness, account: Account, trader: { userId: number; token: string }): Promise<void>;
  /** the account's orders at the fake, oldest first */
  orders(account: Account): FakeOrder[];
  order(id: string): FakeOrder | undefined;
  /** the trader sells the entry's quantity at 90 in the broker's own app */
  sellByHand(account: Account, entryId: string): void | Promise<void>;
  /** the account's net quantity at the fake in the entry's instrument, where the fake keeps positions */
  positionAtBroker?(account: Account, entryId: string): number | undefined;
  /**
   * test title parts: how the session ends ("Angel's midnight logout ends the session"), the IP refusal's code if it
   * has one, and how a stop's fill arrives ("its order message"; default "that fill")
   */
  readonly titles: { readonly sessionEnd: string; readonly ipRefusal?: string; readonly stopFill?: string };
  /** extra checks around a stop the broker fills by itself: called before the fill, its result after the close */
  watchStopFill?(): () => void;
}

export interface LiveTradingSuite<Account> {
  /** a live trader with an open position at the fake: its entry filled and its stop resting */
  openLivePosition(
    name: string,
    dir?: string,
  ): Promise<{ h: Harness; userId: number; account: Account; stopId: string; dir: string }>;
  /** defines the shared scenarios' tests in the caller's describe */
  sharedScenarios(): void;
}

/** The trade of `userId` has closed, as the harness's database says. */
function closedTrade(h: Harness, userId: number) {
  return async () => (await listTrades(h.server.deps.db.knex, { userId }))[0]?.status === 'closed';
}

export function liveTradingSuite<Account>(broker: LiveBroker<Account>): LiveTradingSuite<Account> {
  const placements = () => broker.fake().orderRequests.placements;
  let traders = 0;

  /** A subscribed trader with the bot on, signed up over HTTP, who connects the broker and goes Live. */
  async function liveTrader(h: Harness, account: Account) {
    traders += 1;
    const { userId, token } = await subscribedTrader(h, `.${broker.brokerType}.${traders}`);
    await broker.connect(h, account, { userId, token });
    await goLive(h, userId, token);
    return { userId, token };
  }

  async function openLivePosition(name: string, dir = dataDir()) {
    const h = await startHarness(dir, T0 - 1_000, 100, broker.env(), true);
    const account = broker.newAccount(name);
    const { userId } = await liveTrader(h, account);
    const placedBefore = placements();
    await callSetup(h);
    await untilSettled(async () => placements() - placedBefore === 2, h, 'the entry and its stop');
    const stop = broker.orders(account).find((o) => o.side === 'SELL');
    expect(stop?.state).toBe('resting');
    return { h, userId, account, stopId: stop!.id, dir };
  }

  function sharedScenarios(): void {
    const { name, titles } = broker;

    it('an exit decided by OptionPilot takes the resting stop off first, then sells once', async () => {
      const { h, userId, account, stopId } = await openLivePosition('Ravi Iyer');
      const placedBefore = placements();
      const [open] = await listTrades(h.server.deps.db.knex, { userId });
      await h.premium(open!.entry_price_paise / 100 - 25); // below the stop: OptionPilot's own stop exit
      await untilSettled(closedTrade(h, userId), h, 'the exit');
      const [trade] = await listTrades(h.server.deps.db.knex, { userId });
      expect(trade).toMatchObject({ status: 'closed', exit_reason: 'stop_loss' });
      expect(broker.order(stopId)).toMatchObject({ state: 'cancelled', filledQuantity: 0 });
      expect(placements() - placedBefore).toBe(1);
      expect(broker.orders(account).at(-1)).toMatchObject({ side: 'SELL', limit: true, state: 'filled' });
    });

    it(`a stop ${name} fills by itself closes the trade on ${titles.stopFill ?? 'that fill'}, with no other order`, async () => {
      const { h, userId, stopId } = await openLivePosition('Kavya Nair');
      const placedBefore = placements();
      const check = broker.watchStopFill?.();
      await broker.fake().fill(stopId, 79.5);
      await untilSettled(closedTrade(h, userId), h, 'the close');
      expect((await listTrades(h.server.deps.db.knex, { userId }))[0]).toMatchObject({
        status: 'closed',
        exit_reason: 'stop_loss',
        exit_price_paise: 7_950,
      });
      expect(placements()).toBe(placedBefore);
      check?.();
    });

    it(`after a restart finds the stop still resting at ${name} instead of placing another`, async () => {
      const { h, userId, stopId, dir } = await openLivePosition('Meera Das');
      await h.server.close();
      const placedBefore = placements();
      const second = await startHarness(dir, T0 + 10 * MINUTE, 100, broker.env(), true);
      await second.server.deps.trading.idle();
      expect(second.server.deps.trading.openPositions().map((p) => p.accountId)).toEqual([String(userId)]);
      expect(placements()).toBe(placedBefore);
      // The stop the first process placed still protects the position: the broker filling it closes the trade.
      await broker.fake().fill(stopId, 79.5);
      await untilSettled(closedTrade(second, userId), second, 'the close');
      expect((await listTrades(second.server.deps.db.knex, { userId }))[0]).toMatchObject({
        status: 'closed',
        exit_price_paise: 7_950,
      });
      expect(placements()).toBe(placedBefore);
    });

    it(`at a restart closes a position the trader sold by hand meanwhile (${name} wins) and tells trader and admins`, async () => {
      const { h, userId, account, stopId, dir } = await openLivePosition('Dev Menon');
      const [open] = await listTrades(h.server.deps.db.knex, { userId });
      await h.server.close();
      // While OptionPilot is down the trader sells the position in the broker's app, leaving OptionPilot's stop.
      const entry = broker.orders(account).find((o) => o.side === 'BUY')!;
      await broker.sellByHand(account, entry.id);

      const second = await startHarness(dir, T0 + 10 * MINUTE, 100, broker.env(), true);
      const knex = second.server.deps.db.knex;
      await untilSettled(closedTrade(second, userId), second, 'the check');
      expect((await listTrades(knex, { userId }))[0]).toMatchObject({
        id: open!.id,
        status: 'closed',
        exit_reason: 'broker',
      });
      // OptionPilot's stop came off before the record closed: it can never sell a position that is gone.
      expect(broker.order(stopId)?.state).toBe('cancelled');
      if (broker.positionAtBroker !== undefined) expect(broker.positionAtBroker(account, entry.id)).toBe(0);
      expect(second.server.deps.trading.openPositions()).toEqual([]);
      // The trader's Broker Connection card shows the difference; the audit log (the admins' live log) has it too.
      const row = await findBrokerAccountByUser(knex, userId);
      expect(presentBrokerConnection(row!).positionCheck?.differences).toEqual([
        {
          symbol: SYMBOL,
          optionPilot: entry.quantity,
          broker: 0,
          action: 'closed',
          closedTradeIds: [open!.id],
        },
      ]);
      const logs = await knex('logs')
        .where({ user_id: userId })
        .andWhere('description', 'like', 'Positions reconciled%');
      expect(logs).toHaveLength(1);
      expect(String(logs[0].description)).toContain(`trade #${open!.id} closed as sold outside OptionPilot`);
    });

    it(`${titles.sessionEnd}: the card says Session expired with the fixed message`, async () => {
      const { h, userId } = await openLivePosition('Nisha Pillai');
      const knex = h.server.deps.db.knex;
      // At the expiry stored at login the card turns expired by the clock alone…
      const row = await findBrokerAccountByUser(knex, userId);
      expect(presentBrokerConnection(row!, { now: row!.token_expires_at!, publicUrl: '' }).session).toBe(
        'expired',
      );
      // …and the broker refuses the session from then on: the adapter's next call marks it ended.
      broker.fake().expireSessions();
      await untilSettled(
        async () => (await findBrokerAccountByUser(knex, userId))?.status === 'expired',
        h,
        'the session to be marked expired',
      );
      expect(presentBrokerConnection((await findBrokerAccountByUser(knex, userId))!)).toMatchObject({
        session: 'expired',
        connected: false,
        lastError: 'Your broker session has expired. Reconnect to trade today.',
      });
    });

    const refusal = titles.ipRefusal === undefined ? '' : ` (${titles.ipRefusal})`;
    it(`an order refused for the server IP${refusal} blocks the account at once: the card and a socket event name the IP, entries stop until the trader resumes`, async () => {
      const h = await startHarness(dataDir(), T0 - 1_000, 100, broker.env(), true);
      const { userId, token } = await liveTrader(h, broker.newAccount('Omar Khan'));
      const toUser = vi.spyOn(h.server.deps.realtime, 'toUser');

      // The broker answers the entry: this server's IP is not the app's registered static IP.
      broker.fake().inject('ip_not_allowed');
      const placedBefore = placements();
      await callSetup(h);
      await h.server.deps.trading.idle();
      expect(placements() - placedBefore).toBe(1);
      const knex = h.server.deps.db.knex;
      const blocked = presentBrokerConnection((await findBrokerAccountByUser(knex, userId))!);
      expect(blocked).toMatchObject({ session: 'ip_blocked', connected: false });
      expect(blocked.lastError).toContain(`This server's IP address: ${broker.egressIp}.`);
      expect(toUser).toHaveBeenCalledWith(
        userId,
        'user:broker',
        expect.objectContaining({ session: 'ip_blocked' }),
      );
      expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('paper');
      const audit = await knex('logs')
        .where({ user_id: userId })
        .andWhere('description', 'like', '%refused the server%');
      expect(audit).toHaveLength(1);

      // The next signal sends nothing to the broker: the account trades paper until the trader acts.
      await callSetup(h, 10);
      await h.server.deps.trading.idle();
      expect(placements() - placedBefore).toBe(1);
      // Newest first: the second signal's entry went to the paper broker.
      expect((await listOrders(knex, { userId })).map((o) => o.broker)).toEqual(['paper', broker.brokerType]);
      h.server.deps.trading.flattenAll();
      await h.server.deps.trading.idle();

      // The trader registers the IP with the broker and resumes: the next entry goes to the broker again.
      const resumed = await api(h, 'POST', '/api/user/broker/resume', {}, token);
      expect(resumed.status, resumed.text).toBe(200);
      expect((await h.server.deps.trading.botStatus(userId)).mode).toBe('live');
      await callSetup(h, 20);
      await untilSettled(async () => placements() - placedBefore === 3, h, 'the entry and its resting stop');
    });
  }

  return { openLivePosition, sharedScenarios };
}
