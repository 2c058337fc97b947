// The market feed chosen by `FEED` and the engine clock it runs on.
// - `sim`: the engine's seeded simulated NIFTY on a scaled clock starting now (`SIM_SPEED`× real time).
// - `replay:<file>`: the recorded CSV (ticks or 1-minute candles) played at `SIM_SPEED`× real time on an engine clock
//   the replay itself drives from the file's first timestamp: the clock moves to each tick's instant (deadlines
//   before it fire first) and waits for the engine's work, so candles, signals and trades equal the backtest's at
//   any speed. Out-of-order rows are dropped and counted when the file is read. Recordings carry no option prices: the
//   engine's replay feed quotes options with Black–Scholes from the index (ATM IV 14 %, skew, r 6.5 %; see
//   engine/src/feeds/README.md), the same model the simulation uses.
// - a registered broker's FEED name (`kite`, `upstox`, …): its live feed over the FEED_ACCOUNT's session
//   (brokerFeed.ts), on the real clock.
import { resolve } from 'node:path';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import {
  createReplayFeed,
  createScaledScheduler,
  createSimulatedFeed,
  type FeedSource,
} from '@optionpilot/engine';
import { readReplayFile } from '@optionpilot/engine/feeds/readReplayFile';
import { brokerFeeds } from '../brokers/registry';
import type { BrokerType } from '../brokers/types';
import type { MarketContext } from './market';

/** FEED values that are broker feeds, and the broker each streams from (from the registered definitions). */
export const BROKER_FEEDS: Readonly<Record<string, BrokerType>> = brokerFeeds();

/** A feed that cannot be built from the configuration. */
export class FeedConfigError extends Error {
  override readonly name = 'FeedConfigError';
}

export interface ConfiguredFeed {
  source: FeedSource;
  /** the engine clock the feed plays on */
  scheduler: SchedulerLike;
}

/**
 * Builds the configured feed and its clock; `scheduler` overrides the clock (tests): with a replay it is the real
 * clock that paces the replay, whose own engine clock is returned. `seed` is the simulation's seed (SIM_SEED, or a
 * random one the caller logs).
 */
export async function createConfiguredFeed(props: {
  feed: string;
  seed: number;
  speed: number;
  market: MarketContext;
  scheduler?: SchedulerLike;
  /** where a simulation stopped (its last instant and index level): it resumes there, never earlier */
  resume?: { time: number; price: number };
  /** logs what a replay file's rows did not deliver (out-of-order rows dropped) */
  warn?: (message: string) => void;
  /** a replay waits for this after each step of its clock (the runtime's `idle()`), as the backtester does */
  settle?: () => Promise<unknown> | undefined;
  /** builds a broker's live feed (a registered broker's FEED name); without it broker feeds are refused */
  brokerFeed?: (broker: BrokerType) => Promise<FeedSource>;
}): Promise<ConfiguredFeed> {
  const { feed, market } = props;
  // Contracts stop trading at their expiry day's close on the exchange calendar, whatever SIM_SESSION says.
  const quotes = { expiryInstant: (date: string) => market.expiries.expiryInstant(date) };
  if (feed === 'sim') {
    const { resume } = props;
    // Engine time never goes backwards: a fast simulation that ran ahead of the wall clock resumes where it was.
    const scheduler =
      props.scheduler ??
      createScaledScheduler({
        speed: props.speed,
        ...(resume === undefined ? {} : { startAt: Math.max(Date.now(), resume.time + 1) }),
      });
    const source = createSimulatedFeed({
      seed: props.seed,
      scheduler,
      calendar: market.calendar,
      quotes,
      ...(resume === undefined ? {} : { startPrice: resume.price }),
    });
    return { source, scheduler };
  }
  if (feed.startsWith('replay:')) {
    const path = resolve(feed.slice('replay:'.length));
    const { ticks, dropped, firstDroppedLine } = await readReplayFile(path).catch((err: unknown) => {
      throw new FeedConfigError(`FEED=${feed}: ${err instanceof Error ? err.message : String(err)}`, {
        cause: err,
      });
    });
    const first = ticks[0];
    if (first === undefined) throw new FeedConfigError(`FEED=${feed}: the file has no ticks`);
    if (dropped > 0) {
      props.warn?.(
        `FEED=${feed}: ${dropped} row(s) earlier than the row before were dropped, as the live feed drops an out-of-order tick (first at line ${firstDroppedLine ?? '?'})`,
      );
    }
    const source = createReplayFeed({
      ticks,
      speed: props.speed,
      quotes,
      ...(props.scheduler === undefined ? {} : { pace: props.scheduler }),
      ...(props.settle === undefined ? {} : { settle: props.settle }),
    });
    return { source, scheduler: source.scheduler };
  }
  const broker = Object.hasOwn(BROKER_FEEDS, feed) ? BROKER_FEEDS[feed] : undefined;
  if (broker !== undefined && props.brokerFeed !== undefined) {
    return { source: await props.brokerFeed(broker), scheduler: props.scheduler ?? asyncScheduler };
  }
  throw new FeedConfigError(
    `FEED=${feed}: not a feed this server can run; use sim, replay:<file> or one of ${Object.keys(BROKER_FEEDS).join(', ')}`,
  );
}
