// The market feed chosen by `FEED`: `sim` is the engine's seeded simulated NIFTY with Black–Scholes option quotes
// on the engine clock (`SIM_SPEED`); `replay:<file>` and broker feeds are refused with a clear message until the
// engine ships them.
import type { SchedulerLike } from 'rxjs';
import { createSimulatedFeed } from '@optionpilot/engine/feeds/simulatedFeed';
import type { FeedSource } from '@optionpilot/engine/feeds/feedSource';
import type { MarketContext } from './market';

/** A feed that cannot be built from the configuration. */
export class FeedConfigError extends Error {
  override readonly name = 'FeedConfigError';
}

/** Builds the configured feed; `seed` is the simulation's seed (SIM_SEED, or a random one the caller logs). */
export function createConfiguredFeed(props: {
  feed: string;
  seed: number;
  scheduler: SchedulerLike;
  market: MarketContext;
}): FeedSource {
  const { feed, scheduler, market } = props;
  if (feed === 'sim') {
    return createSimulatedFeed({
      seed: props.seed,
      scheduler,
      calendar: market.calendar,
      // Contracts stop trading at their expiry day's close on the exchange calendar, whatever SIM_SESSION says.
      quotes: { expiryInstant: (date) => market.expiries.expiryInstant(date) },
    });
  }
  if (feed.startsWith('replay:')) {
    throw new FeedConfigError(
      `FEED=${feed}: the engine has no replay feed yet (engine/src/feeds); use FEED=sim until it lands`,
    );
  }
  throw new FeedConfigError(
    `FEED=${feed}: broker feeds arrive with the broker integration; use FEED=sim (or replay:<file>)`,
  );
}
