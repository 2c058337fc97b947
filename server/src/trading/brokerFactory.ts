// Which broker an account's orders go to: the paper broker, unless the eligibility rules made the account live
// (the trader chose Live and their broker session is valid), then the adapter of their broker module over their
// own session. After a restart a restored position goes back to the broker it was opened on (live when its trade
// was live and the session is still valid, else a disconnected broker that holds its exits until the trader
// reconnects: never paper). The runtime builds an account's broker again when its key changes
// while it is flat (engine/src/runtime/entryDesk.ts), so a new day's session or a switch to Paper takes effect at
// the next entry and never under an open position.
import type { SchedulerLike } from 'rxjs';
import {
  DISCONNECTED_BROKER,
  DisconnectedBroker,
  isBrokerError,
  istDate,
  PAPER_SLIPPAGE,
  PaperBroker,
  type Broker,
  type BrokerChoice,
  type BrokerFactory,
  type Quote,
} from '@optionpilot/engine';
import type { BrokerSessions } from './brokerSessions';
import { timeBrokerCalls } from '../metrics/brokerTiming';
import type { TradingMetrics } from '../metrics/metrics';
import { hasDailyLossSafetyNet, type DailyLossSafetyNet } from '../brokers/types';

export interface AccountBrokers {
  /** the runtime's broker factory */
  readonly build: BrokerFactory;
  /** the broker an account's orders were last routed to ('paper', 'zerodha', …): stored with each order */
  nameOf(accountId: string): string;
  /** restored open trades: whether each account's position was paper */
  restored(paperByAccount: ReadonlyMap<string, boolean>): void;
  /** the account's daily loss lock fired: its live adapter's own safety net at the broker, when it has one */
  dailyLossLocked(accountId: string): Promise<void>;
}

export interface AccountBrokersOptions {
  sessions: BrokerSessions;
  /** what the paper broker fills against: the runtime's quotes on the engine clock */
  paper: {
    readonly quote: (symbol: string) => Quote | undefined;
    readonly scheduler: SchedulerLike;
    readonly tickSize: number;
  };
  /** wall clock: sessions expire on real time */
  now: () => number;
  /** a live position whose session is gone is still tracked on paper: say so loudly */
  warn: (accountId: string, message: string) => void;
  /** the broker refused the token of session `key` (it ended early, or the daily logout came) */
  sessionEnded?: (accountId: string, key: string) => void;
  /** the broker refused this server's IP on an order of session `key` (SEBI's static-IP rule) */
  ipRefused?: (accountId: string, key: string) => void;
  /**
   * an order write failed at the broker for a reason other than the broker's decision on the order (timeout,
   * network, rate limit, session, IP): counted for the admins' broker-errors notice
   */
  brokerError?: (broker: string, error: Error) => void;
  /** order latency and broker errors for `/metrics`: every account's broker, paper included */
  metrics?: TradingMetrics;
}

/**
 * The live adapter with every order write watched for "IP not allowed": brokers check the static IP only on
 * place / modify / cancel, so that is where the refusal shows. Whatever the broker, the account is blocked at once
 * (`refused`), and the refusal still reaches the router as the order's outcome.
 */
export function watchIpRefusals(
  broker: Broker,
  refused: () => void,
  failed: (error: Error) => void = () => undefined,
): Broker {
  const watch = <T>(call: Promise<T>): Promise<T> =>
    call.catch((err: unknown) => {
      if (isBrokerError(err) && err.kind === 'ip_not_allowed') refused();
      // A rejection is the broker's answer about the order (the trader hears of it); anything else is the link.
      if (err instanceof Error && !(isBrokerError(err) && err.kind === 'rejected')) failed(err);
      throw err;
    });
  const watched: Broker = {
    capabilities: broker.capabilities,
    orderUpdates$: broker.orderUpdates$,
    placeOrder: (request) => watch(broker.placeOrder(request)),
    modifyOrder: (id, amendment) => watch(broker.modifyOrder(id, amendment)),
    cancelOrder: (id) => watch(broker.cancelOrder(id)),
    getOrder: (ref) => broker.getOrder(ref),
    getPositions: () => broker.getPositions(),
  };
  if (broker.prepare !== undefined) {
    const prepare = broker.prepare.bind(broker);
    return { ...watched, prepare: () => prepare() };
  }
  return watched;
}

export function createAccountBrokers(options: AccountBrokersOptions): AccountBrokers {
  const names = new Map<string, string>();
  /** the last live adapter built per account, when it has a safety net at the broker (Dhan's kill switch) */
  const safetyNets = new Map<string, DailyLossSafetyNet>();
  /** the IST day each account's safety net was last armed: once a day, however many closes lose after the lock */
  const armedOn = new Map<string, string>();
  let restoredPaper: ReadonlyMap<string, boolean> = new Map();

  function build(accountId: string, account?: BrokerChoice): Broker {
    const broker = choose(accountId, account);
    const { metrics } = options;
    return metrics === undefined ? broker : timeBrokerCalls(broker, names.get(accountId) ?? 'paper', metrics);
  }

  function choose(accountId: string, account?: BrokerChoice): Broker {
    const paper = account?.paper ?? restoredPaper.get(accountId) ?? true;
    const live = paper ? undefined : options.sessions.get(Number(accountId), options.now());
    if (live === undefined && !paper) {
      // Never paper for a live position: it is at the broker, and "selling" it on paper would leave it there
      // unmanaged. Its exits wait for the reconnect; its stop rests at the broker meanwhile.
      options.warn(
        accountId,
        'live position without a valid broker session: its exits wait until the trader reconnects',
      );
      names.set(accountId, DISCONNECTED_BROKER);
      return new DisconnectedBroker();
    }
    if (live === undefined) {
      names.set(accountId, 'paper');
      return new PaperBroker({
        quotes: { getQuote: options.paper.quote },
        scheduler: options.paper.scheduler,
        idPrefix: `P${accountId}-`,
        // The backtest's fills too: the same data gives the same trades live and in a backtest.
        slippage: PAPER_SLIPPAGE,
        tickSize: options.paper.tickSize,
      });
    }
    names.set(accountId, live.module.type);
    safetyNets.delete(accountId);
    const { sessionEnded, ipRefused, brokerError } = options;
    const adapter = live.module.createBroker({
      credentials: live.credentials,
      session: live.session,
      ...(sessionEnded === undefined ? {} : { onSessionEnded: () => sessionEnded(accountId, live.key) }),
    });
    if (hasDailyLossSafetyNet(adapter)) safetyNets.set(accountId, adapter);
    if (ipRefused === undefined && brokerError === undefined) return adapter;
    const type = live.module.type;
    return watchIpRefusals(
      adapter,
      () => ipRefused?.(accountId, live.key),
      (error) => brokerError?.(type, error),
    );
  }

  return {
    build,
    nameOf: (accountId) => names.get(accountId) ?? 'paper',
    restored(paperByAccount) {
      restoredPaper = paperByAccount;
    },
    async dailyLossLocked(accountId) {
      const net = names.get(accountId) === 'paper' ? undefined : safetyNets.get(accountId);
      const today = istDate(options.now());
      if (net === undefined || armedOn.get(accountId) === today) return;
      armedOn.set(accountId, today);
      await net.onDailyLossLock();
    },
  };
}
