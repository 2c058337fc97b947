import { isTerminal } from '../execution/orderStateMachine';
import type { Order } from '../execution/orderTypes';
import { createPositionRisk } from '../risk/positionRisk';
import type { PositionRiskConfig } from '../risk/positionRisk';
import type { Signal } from '../strategy/signal';
import { planEntry } from './entryPlan';
import type { EntryPlan } from './entryPlan';
import { settledOrders, averageFill } from './orderFills';
import type { StrategyBook } from './strategyBook';
import type { DeskContext } from './deskContext';
import type { Position } from './positionBook';
import type { ExitDesk } from './exitDesk';
import type { TradingRuntimeOptions } from './runtimeOptions';
import type { BrokerChoice, RuntimeAccount, TradeOpen } from './types';

const DEFAULT_FILL_TIMEOUT_MS = 30_000;
/** A finite "never" for positions without a square-off (the always-open calendar), so the state stays JSON. */
const NO_SQUARE_OFF = Number.MAX_SAFE_INTEGER;

/** An entry between its order and its trade. */
interface PendingEntry {
  readonly account: RuntimeAccount;
  readonly strategyId: string;
  readonly signalId: string;
  readonly signal: Signal;
  readonly time: number;
  readonly plan: EntryPlan;
  readonly squareOffAt: number | null;
}

/**
 * Signal → entry for every eligible account at once. Each account goes through its own broker, its own
 * order-rate limiter (in the router) and its own fill timeout, so a slow, failing or silent broker never delays
 * another account. Client ids are made and persisted before a broker is called (the router).
 */
/** The broker key of an account as the eligibility rules gave it. */
export function brokerKeyOf(account: BrokerChoice): string {
  return account.brokerKey ?? (account.paper ? 'paper' : 'live');
}

export class EntryDesk {
  /** account → the broker key its registered broker was built for ('restored' after a restart) */
  private readonly accounts = new Map<string, string>();

  constructor(
    private readonly ctx: DeskContext,
    private readonly options: TradingRuntimeOptions,
    private readonly book: StrategyBook,
    /** the exits desk, which takes each filled entry's position over */
    private readonly exits: Pick<ExitDesk, 'adopt'>,
  ) {}

  /**
   * Registers an account's broker with the router and its daily loss limit with the risk manager. The broker is
   * built again when `account` names another broker (paper ↔ live, a new day's session) and the account is flat:
   * an open position's exits always go to the broker that opened it. Returns false when the account's broker is
   * not the one `account` names (it could not be switched under an open position).
   */
  ensureAccount(accountId: string, maxDailyLoss: number, account?: RuntimeAccount): boolean {
    const registered = this.accounts.get(accountId);
    const wanted = account === undefined ? undefined : brokerKeyOf(account);
    const flat = !this.ctx.book.isEntering(accountId) && !this.ctx.risk.hasOpenPosition(accountId);
    if (registered === undefined || (wanted !== undefined && wanted !== registered && flat)) {
      this.register(accountId, account);
      this.accounts.set(accountId, wanted ?? 'restored');
    }
    this.ctx.risk.configureAccount(accountId, maxDailyLoss);
    return wanted === undefined || this.accounts.get(accountId) === wanted;
  }

  /** Whether an entry of the account is in flight (its fill not yet known). */
  isEntering(accountId: string): boolean {
    return this.ctx.book.isEntering(accountId);
  }

  /**
   * Builds a registered account's broker again (its broker session was renewed), even under open positions: they
   * stay at the same broker account, now reached over the new session.
   */
  rebuildBroker(accountId: string, choice: BrokerChoice): void {
    if (!this.accounts.has(accountId)) return;
    this.register(accountId, choice);
    this.accounts.set(accountId, brokerKeyOf(choice));
  }

  private register(accountId: string, choice: BrokerChoice | undefined): void {
    this.ctx.router.addAccount({
      accountId,
      broker: this.options.brokers(accountId, choice),
      ...(this.options.maxOrdersPerSecond === undefined
        ? {}
        : { maxOrdersPerSecond: this.options.maxOrdersPerSecond }),
    });
  }

  removeAccount(accountId: string): void {
    if (!this.accounts.delete(accountId)) return;
    this.ctx.router.removeAccount(accountId);
  }

  /**
   * Enters every eligible account on an executed signal, concurrently. Resolves once every entry has started (each
   * has subscribed its option's quote); the entries themselves run on.
   */
  fanOut(strategyId: string, signalId: string, signal: Signal): Promise<void> {
    const time = signal.executedAt ?? this.options.scheduler.now();
    const squareOffAt = (this.options.squareOffAt ?? ((t) => this.options.calendar.squareOffTime(t)))(time);
    // Accounts with the same size buy the same thing: the plan is made once per size, not once per account.
    const plans = new Map<string, EntryPlan>();
    const planFor = (account: RuntimeAccount): EntryPlan => {
      const key = `${account.lots}|${account.quantity ?? ''}`;
      let plan = plans.get(key);
      if (plan === undefined) {
        plan = this.plan(signal, time, account);
        plans.set(key, plan);
      }
      return plan;
    };
    const run = async (): Promise<void> => {
      const accounts = await this.options.accounts.eligible({ strategyId, signal, time });
      for (const account of accounts) {
        this.ctx.track(
          `entry of account ${account.accountId}`,
          this.enter(account, { strategyId, signalId, signal, time, squareOffAt }, planFor),
          account.accountId,
        );
      }
    };
    const started = run();
    this.ctx.track(`fan-out of signal ${signalId}`, started);
    return started.catch(() => undefined);
  }

  /**
   * A signal armed: every account that would enter now has its broker registered (its limiter and update stream
   * exist before the order), and each live one readies its broker (an open connection to the order host), so the
   * orders leave without set-up or a handshake when the signal executes.
   */
  prepare(strategyId: string, signal: Signal): void {
    const time = this.options.scheduler.now();
    const run = async (): Promise<void> => {
      const prepared: Promise<void>[] = [];
      for (const account of await this.options.accounts.eligible({ strategyId, signal, time })) {
        const registered = this.ensureAccount(account.accountId, account.maxDailyLoss, account);
        if (registered && !account.paper) prepared.push(this.ctx.router.prepare(account.accountId));
      }
      await Promise.all(prepared);
    };
    this.ctx.track(`preparing the entries of signal ${signal.key}`, run());
  }

  /** What an account of this size buys on the signal: the strike, the symbol, whole lots (the broker's lot size). */
  private plan(signal: Signal, time: number, account: RuntimeAccount): EntryPlan {
    const index = signal.executedPrice ?? signal.entryTrigger;
    const base = {
      type: signal.type,
      index,
      time,
      lots: account.lots,
      expiries: this.options.expiries,
      ...(this.options.freezeQuantity === undefined ? {} : { freezeQuantity: this.options.freezeQuantity }),
    };
    const firstPlan = planEntry({
      ...base,
      ...(account.quantity === undefined ? {} : { quantity: account.quantity }),
    });
    const brokerLot = this.options.lotSizeOf?.(firstPlan.symbol);
    return brokerLot === undefined || brokerLot === firstPlan.lotSize
      ? firstPlan
      : planEntry({ ...base, lotSizeOverride: brokerLot });
  }

  private async enter(
    account: RuntimeAccount,
    entry: Omit<PendingEntry, 'account' | 'plan'>,
    planFor: (account: RuntimeAccount) => EntryPlan,
  ): Promise<void> {
    const { strategyId, signalId, signal, time, squareOffAt } = entry;
    const { accountId } = account;
    const definition = this.book.definition(strategyId);
    if (definition === undefined || this.ctx.book.isEntering(accountId)) return;
    // Never an entry through another broker than the one the account is marked for (paper vs live).
    if (!this.ensureAccount(accountId, account.maxDailyLoss, account)) return;
    const allowed = this.ctx.risk.canEnter(accountId, time);
    if (!allowed.ok) return;
    if (squareOffAt !== null && time >= squareOffAt) return;
    const plan = planFor(account);
    // The position exists from its entry's order on: one per account, even before the fill.
    const position = this.ctx.book.enter(accountId, plan.symbol);
    if (position === undefined) return;
    this.ctx.quotes.subscribeQuote(plan.symbol);
    let outcome: 'opened' | 'failed' | 'pending' = 'failed';
    try {
      const result = await this.ctx.router.submit({
        purpose: 'entry',
        signalId,
        accountId,
        symbol: plan.symbol,
        side: 'BUY',
        quantity: plan.quantity,
        type: 'MARKET',
      });
      if (result.status === 'duplicate' || result.status === 'failed') {
        this.log(
          'warn',
          `entry not placed (${result.status}${result.error ? `: ${result.error}` : ''})`,
          accountId,
        );
        return;
      }
      const ids = result.orders.map((o) => o.clientOrderId);
      const orders = await settledOrders(
        this.ctx.router,
        ids,
        this.options.scheduler,
        this.options.fillTimeoutMs ?? DEFAULT_FILL_TIMEOUT_MS,
      );
      if (!orders.every((o) => isTerminal(o.state))) {
        // Not known yet (a silent or slow broker): the account takes no other entry until the broker tells, and a
        // late fill still becomes a managed position. Nobody else waits for it.
        outcome = 'pending';
        this.log('warn', `entry not confirmed in time: ${orders.map((o) => o.state).join(', ')}`, accountId);
        void settledOrders(this.ctx.router, ids, this.options.scheduler, Number.POSITIVE_INFINITY)
          .then((late) =>
            this.record(late, position, { account, strategyId, signalId, signal, time, plan, squareOffAt }),
          )
          .catch((err: unknown) => this.log('warn', `late entry failed: ${String(err)}`, accountId))
          .finally(() => this.ctx.book.abandon(position));
        return;
      }
      outcome = (await this.record(orders, position, {
        account,
        strategyId,
        signalId,
        signal,
        time,
        plan,
        squareOffAt,
      }))
        ? 'opened'
        : 'failed';
    } finally {
      // An entry that did not open a position bought nothing: ENTERING → CLOSED (a no-op once it opened).
      if (outcome !== 'pending') this.ctx.book.abandon(position);
    }
  }

  /** A settled entry: a full fill becomes an open trade (stored, then managed); anything else is let go. */
  private async record(orders: readonly Order[], entering: Position, entry: PendingEntry): Promise<boolean> {
    const { account, strategyId, signalId, signal, time, plan, squareOffAt } = entry;
    const { accountId } = account;
    const fill = averageFill(orders);
    if (fill.quantity !== plan.quantity || !orders.every((o) => o.state === 'FILLED')) {
      // With its reason (a broker's refusal code, NO_QUOTE…): an operator reading the log must see why.
      const outcome = orders.map((o) => (o.reason === undefined ? o.state : `${o.state} (${o.reason})`));
      this.log('warn', `entry did not fill: ${outcome.join(', ')}`, accountId);
      this.ctx.quotes.unsubscribeQuote(plan.symbol);
      return false;
    }
    const params = this.book.definition(strategyId)?.params;
    if (params === undefined) {
      this.ctx.quotes.unsubscribeQuote(plan.symbol);
      return false;
    }
    // The account's own choice first (a parameter sweep runs many in one runtime), else the runtime's.
    const trailing = account.trailing ?? this.options.trailing;
    const targetMode = account.targetMode ?? this.options.targetMode;
    const config: PositionRiskConfig = {
      entryPrice: fill.price,
      stopLoss: params.stopLoss,
      target:
        account.targetPoints !== undefined && account.targetPoints > 0 ? account.targetPoints : params.target,
      squareOffAt: squareOffAt ?? NO_SQUARE_OFF,
      entryTime: time,
      ...(trailing === undefined ? {} : { trailing }),
      ...(targetMode === undefined ? {} : { targetMode }),
    };
    const trade: TradeOpen = {
      accountId,
      strategyId,
      signalId,
      signalTime: signal.time,
      type: signal.type,
      optionType: plan.optionType,
      strike: plan.strike,
      expiry: plan.expiry,
      expiryAt: plan.expiryAt,
      symbol: plan.symbol,
      lots: plan.lots,
      quantity: plan.quantity,
      legs: plan.legs,
      entryTime: time,
      entryIndex: signal.executedPrice ?? signal.entryTrigger,
      entryPremium: fill.price,
      paper: account.paper,
      risk: createPositionRisk(config),
      orderIds: orders.map((o) => o.clientOrderId),
    };
    // The trade's rows never run ahead of its orders': their filled versions are written first.
    await this.ctx.router.written(trade.orderIds);
    const tradeId = await this.options.store.openTrade(trade);
    const opened = this.ctx.risk.openPosition({
      positionId: tradeId,
      accountId,
      symbol: plan.symbol,
      quantity: plan.quantity,
      time,
      risk: config,
    });
    if (!opened.ok) {
      // Halted or locked while the order was in flight: the contracts are bought, so they are still managed.
      this.log(
        'warn',
        `entry filled after entries were blocked (${opened.reason}); managing it anyway`,
        accountId,
      );
      this.ctx.risk.adoptPosition({
        positionId: tradeId,
        accountId,
        symbol: plan.symbol,
        quantity: plan.quantity,
        openedAt: time,
        risk: trade.risk,
      });
    }
    // The position opens with the risk manager's own state object (one state, updated in place by every quote);
    // the exits desk takes it over and its square-off becomes a deadline.
    const risk = this.ctx.risk.position(tradeId)?.risk ?? trade.risk;
    this.exits.adopt(this.ctx.book.open(entering, tradeId, trade, risk));
    this.ctx.deadlinesChanged();
    this.options.events({ kind: 'trade-opened', tradeId, trade });
    return true;
  }

  private log(level: 'info' | 'warn', message: string, accountId: string): void {
    this.options.events({ kind: 'log', level, message, accountId });
  }
}
