import type { Candle, IntervalMinutes, SessionCalendar, Tick } from '../core/types';
import { ConsecutiveBreakout } from '../strategy/consecutiveBreakout';
import type { StrategyEvent } from '../strategy/signal';
import type { StrategyDefinition } from './types';

/** A strategy event with the strategy that produced it. */
export interface BookEvent {
  readonly strategyId: string;
  readonly event: StrategyEvent;
}

interface Entry {
  readonly strategyId: string;
  definition: StrategyDefinition;
  readonly strategy: ConsecutiveBreakout;
}

/**
 * Every active strategy of the runtime, each a white-box `ConsecutiveBreakout` with its own parameter set. Closed
 * candles go to the strategies on that interval; ticks go to every strategy (only an armed one reacts).
 */
export class StrategyBook {
  private readonly calendar: SessionCalendar;
  private readonly entries = new Map<string, Entry>();
  /** the entries in the map's order, for the per-tick loops (no iterator, no [key, value] pair per tick) */
  private list: readonly Entry[] = [];

  constructor(calendar: SessionCalendar, definitions: readonly StrategyDefinition[]) {
    this.calendar = calendar;
    this.set(definitions);
  }

  /** Adds, updates (applied at the next candle close) and removes strategies to match `definitions`. */
  set(definitions: readonly StrategyDefinition[]): void {
    const ids = new Set(definitions.map((d) => d.id));
    for (const id of [...this.entries.keys()]) if (!ids.has(id)) this.entries.delete(id);
    for (const definition of definitions) {
      const entry = this.entries.get(definition.id);
      if (entry === undefined) {
        const strategy = new ConsecutiveBreakout({ calendar: this.calendar, params: definition.params });
        this.entries.set(definition.id, { strategyId: definition.id, definition, strategy });
      } else {
        entry.definition = definition;
        entry.strategy.setParams(definition.params);
      }
    }
    this.list = [...this.entries.values()];
  }

  /** The definition of a strategy (its latest parameters, which an entry uses). */
  definition(id: string): StrategyDefinition | undefined {
    return this.entries.get(id)?.definition;
  }

  /** Every strategy's definition. */
  definitions(): readonly StrategyDefinition[] {
    return [...this.entries.values()].map((e) => e.definition);
  }

  /** The candle intervals the strategies read (current and pending parameters alike). */
  intervals(): IntervalMinutes[] {
    const intervals = new Set<IntervalMinutes>();
    for (const { definition, strategy } of this.entries.values()) {
      intervals.add(definition.params.interval);
      intervals.add(strategy.params.interval);
    }
    return [...intervals];
  }

  /** A closed candle reaches the strategies whose interval it is. */
  onCandle(candle: Candle, out: BookEvent[]): void {
    for (const [strategyId, { strategy }] of this.entries) {
      if (strategy.params.interval !== candle.interval) continue;
      for (const event of strategy.onCandle(candle)) out.push({ strategyId, event });
    }
  }

  /** An accepted tick may execute an armed signal. */
  onTick(tick: Tick, out: BookEvent[]): void {
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const { strategyId, strategy } = list[i] as Entry;
      if (strategy.armed === undefined) continue;
      const event = strategy.onTick(tick);
      if (event) out.push({ strategyId, event });
    }
  }

  /** Time passes without an accepted tick: armed signals whose interval ended expire. */
  advanceTo(time: number, out: BookEvent[]): void {
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const { strategyId, strategy } = list[i] as Entry;
      if (strategy.armed === undefined) continue;
      const event = strategy.advanceTo(time);
      if (event) out.push({ strategyId, event });
    }
  }

  /** The earliest expiry of an armed signal. */
  get nextExpiry(): number | undefined {
    let earliest: number | undefined;
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const at = (list[i] as Entry).strategy.armed?.expiresAt;
      if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
    }
    return earliest;
  }
}
