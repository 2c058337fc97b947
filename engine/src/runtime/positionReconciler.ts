import type { SchedulerLike } from 'rxjs';
import type { BrokerPosition } from '../execution/broker';
import { comparePositions, confirmedDifferences } from './positionCheck';
import type { HeldPosition, PositionDifference } from './positionCheck';

/** How long the second look waits by default (ms): a fill the broker has not booked yet is not a difference. */
export const DEFAULT_CONFIRM_AFTER_MS = 3_000;

/** The outcome of one account's check, as the `positions-checked` event carries it. */
export interface PositionCheckOutcome {
  readonly accountId: string;
  /** the broker module's name ('zerodha', 'upstox', …) */
  readonly broker: string;
  readonly checkedAt: number;
  /** confirmed differences (empty: the broker and OptionPilot agree); `closed` ones list what was closed */
  readonly differences: readonly PositionDifference[];
}

export interface PositionReconcilerDeps {
  /** the engine clock: the check's instant and the closes' time */
  readonly scheduler: SchedulerLike;
  /** the real time brokers' books run on: the wait between the two looks */
  readonly brokerClock: SchedulerLike;
  /** the broker's net positions of the account; undefined when it has no broker registered */
  readonly brokerPositions: (accountId: string) => Promise<readonly BrokerPosition[] | undefined>;
  readonly brokerName: (accountId: string) => string | undefined;
  /** the account's live positions */
  readonly held: (accountId: string) => readonly HeldPosition[];
  /** an entry or exit of the account is under way (its own orders settle it): nothing is checked or closed */
  readonly busy: (accountId: string) => boolean;
  /** closes a position the broker no longer holds; false when it could not be closed now */
  readonly closeAtBroker: (positionId: string, time: number) => Promise<boolean>;
  readonly confirmAfterMs?: number;
}

/**
 * Reconciles one live account's positions with its broker (issue 10 item 6), after a start or a reconnect: the
 * broker wins. A difference must show twice, `confirmAfterMs` apart, before anything is done, so a fill the broker
 * has not booked yet (or a position report that lags an order) is never mistaken for one. Positions the broker no
 * longer holds are closed in OptionPilot; what the broker holds beyond OptionPilot's is reported and left alone.
 * Resolves with the outcome, or undefined when the account trades on paper or has no broker.
 */
export async function reconcileAccountPositions(
  deps: PositionReconcilerDeps,
  accountId: string,
): Promise<PositionCheckOutcome | undefined> {
  const broker = deps.brokerName(accountId);
  if (broker === undefined || broker === 'paper') return undefined;
  const look = async (): Promise<PositionDifference[] | undefined> => {
    const atBroker = await deps.brokerPositions(accountId);
    return atBroker === undefined ? undefined : comparePositions(deps.held(accountId), atBroker);
  };
  const first = await look();
  if (first === undefined) return undefined;
  let differences = first;
  if (first.length > 0) {
    await new Promise<void>((resolve) => {
      deps.brokerClock.schedule(resolve, deps.confirmAfterMs ?? DEFAULT_CONFIRM_AFTER_MS);
    });
    // An entry or exit that started meanwhile moves positions on its own: this check stands down.
    const second = deps.busy(accountId) ? undefined : await look();
    if (second === undefined || deps.busy(accountId)) return undefined;
    differences = confirmedDifferences(first, second);
  }
  const checkedAt = deps.scheduler.now();
  const done: PositionDifference[] = [];
  for (const difference of differences) {
    if (difference.action === 'not_managed') {
      done.push(difference);
      continue;
    }
    const closed: string[] = [];
    for (const positionId of difference.closeIds) {
      if (await deps.closeAtBroker(positionId, checkedAt)) closed.push(positionId);
    }
    done.push({ ...difference, closeIds: closed });
  }
  return { accountId, broker, checkedAt, differences: done };
}
