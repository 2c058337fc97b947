import { describe, expect, it } from 'vitest';
import type { Signal } from '../strategy/signal';
import { ArmedQuotes } from './armedQuotes';
import { at, expiries } from './testHarness';

const signal = (key: string, type: 'CALL' | 'PUT', entryTrigger: number) =>
  ({ key, type, entryTrigger }) as unknown as Signal;

describe('ArmedQuotes', () => {
  it('quotes the contract an armed signal would buy once, and lets it go when the signal ends', () => {
    const log: string[] = [];
    const armed = new ArmedQuotes(
      { subscribeQuote: (s) => log.push(`+${s}`), unsubscribeQuote: (s) => log.push(`-${s}`) },
      expiries,
      true,
    );
    const time = at('09:20:00');
    armed.hold(signal('k1', 'CALL', 23_530), time);
    armed.hold(signal('k1', 'CALL', 23_530), time);
    armed.hold(signal('k2', 'PUT', 23_530), time);
    // CALL: CE one strike below the ATM (23,550 → 23,500); PUT: PE one strike above (23,600); the weekly expiry.
    expect(log).toEqual(['+NIFTY13JAN2623500CE', '+NIFTY13JAN2623600PE']);
    armed.release('k1');
    armed.release('k1');
    armed.release('unknown');
    expect(log.slice(2)).toEqual(['-NIFTY13JAN2623500CE']);
  });

  it('does nothing when off (simulated and replayed feeds quote at once)', () => {
    const log: string[] = [];
    const armed = new ArmedQuotes(
      { subscribeQuote: (s) => log.push(s), unsubscribeQuote: (s) => log.push(s) },
      expiries,
      false,
    );
    armed.hold(signal('k', 'CALL', 23_530), at('09:20:00'));
    armed.release('k');
    expect(log).toEqual([]);
  });
});
