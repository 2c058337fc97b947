import { describe, expect, it } from 'vitest';
import { DEFAULT_STRATEGY_PARAMS, StrategyParamsError, parseStrategyParams } from './params';
import { STRATEGY_NAME, describeStrategy } from './describeStrategy';

/** The NSE day as `sessionFacts` gives it for the shipped calendar (sessionFacts.test.ts checks that). */
const SESSION = {
  marketOpen: '09:15',
  marketClose: '15:30',
  entryStart: '09:15',
  entryEnd: '15:00',
  squareOff: '15:15',
} as const;

function issuesOf(settings: Record<string, string>) {
  try {
    parseStrategyParams(settings);
  } catch (err) {
    if (err instanceof StrategyParamsError) return err.issues;
    throw err;
  }
  throw new Error('expected a StrategyParamsError');
}

describe('parseStrategyParams', () => {
  it('gives the defaults for an empty map', () => {
    expect(parseStrategyParams({})).toEqual({
      consecutiveCandles: 3,
      minMovement: 5,
      entryOffset: 2,
      stopLoss: 20,
      target: 40,
      callEnabled: true,
      putEnabled: true,
      tradingEnabled: true,
      interval: 1,
    });
  });

  it('reads every admin control, trims values and ignores unrelated settings', () => {
    const params = parseStrategyParams({
      consecutiveCandles: '4',
      minMovement: ' 7.5 ',
      entryOffset: '0',
      stopLoss: '15',
      target: '30.5',
      callEnabled: 'false',
      putEnabled: 'TRUE',
      tradingEnabled: 'false',
      candleInterval: '5',
      maxDailyLoss: 'whatever',
    });
    expect(params).toEqual({
      consecutiveCandles: 4,
      minMovement: 7.5,
      entryOffset: 0,
      stopLoss: 15,
      target: 30.5,
      callEnabled: false,
      putEnabled: true,
      tradingEnabled: false,
      interval: 5,
    });
    expect(Object.isFrozen(params)).toBe(true);
  });

  it('accepts "15m" and the plain "interval" name; blank values keep the base', () => {
    expect(parseStrategyParams({ candleInterval: '15m' }).interval).toBe(15);
    expect(parseStrategyParams({ interval: '3' }).interval).toBe(3);
    const base = { ...DEFAULT_STRATEGY_PARAMS, stopLoss: 25 };
    expect(parseStrategyParams({ stopLoss: '  ' }, base).stopLoss).toBe(25);
  });

  it.each([
    ['consecutiveCandles', '2.5', 'consecutiveCandles must be a whole number from 1 to 20, got "2.5"'],
    ['consecutiveCandles', '0', 'consecutiveCandles must be a whole number from 1 to 20, got "0"'],
    ['consecutiveCandles', '21', 'consecutiveCandles must be a whole number from 1 to 20, got "21"'],
    ['minMovement', 'abc', 'minMovement must be a number from 0 to 1000, got "abc"'],
    ['minMovement', '1e3', 'minMovement must be a number from 0 to 1000, got "1e3"'],
    ['entryOffset', '-1', 'entryOffset must be a number from 0 to 1000, got "-1"'],
    ['stopLoss', '0', 'stopLoss must be a number greater than 0 and at most 10000, got "0"'],
    ['target', '0x10', 'target must be a number greater than 0 and at most 10000, got "0x10"'],
    ['callEnabled', 'yes', 'callEnabled must be "true" or "false", got "yes"'],
    ['candleInterval', '2', 'candleInterval must be one of 1, 3, 5, 15 (minutes), got "2"'],
  ])('rejects %s = %j naming the setting', (setting, value, message) => {
    expect(issuesOf({ [setting]: value })).toEqual([{ setting, message }]);
  });

  it('reports every invalid setting at once', () => {
    const issues = issuesOf({ stopLoss: 'x', putEnabled: '1' });
    expect(issues.map((i) => i.setting)).toEqual(['stopLoss', 'putEnabled']);
    expect(() => parseStrategyParams({ stopLoss: 'x', putEnabled: '1' })).toThrow(/stopLoss.*; putEnabled/);
  });
});

describe('describeStrategy', () => {
  it('states the live rules with the current parameters', () => {
    const rules = describeStrategy(
      {
        ...DEFAULT_STRATEGY_PARAMS,
        consecutiveCandles: 4,
        minMovement: 8,
        entryOffset: 3,
        stopLoss: 25,
        target: 35,
        interval: 5,
      },
      { session: SESSION },
    );
    const text = rules.join('\n');
    expect(STRATEGY_NAME).toBe('Consecutive-candle breakout');
    expect(text).toContain('CALL setup: the last 4 5-minute candles of the same trading day are all bullish');
    expect(text).toContain('at least 8 points above its open');
    expect(text).toContain("the last candle's high + 3 points");
    expect(text).toContain("the last candle's low − 3 points");
    expect(text).toContain('during the next 5-minute candle');
    expect(text).toContain('stop loss 25 points of premium below the entry price; target 35 points');
    expect(text).toContain('at or before 15:00 IST');
    expect(text).toContain('closed at 15:15 IST');
    expect(text).not.toContain('switched off');
    expect(text).not.toContain('paused');
  });

  it('says when a side is off or trading is paused, and uses the given square-off time', () => {
    const rules = describeStrategy(
      { ...DEFAULT_STRATEGY_PARAMS, callEnabled: false, tradingEnabled: false },
      { session: { ...SESSION, squareOff: '15:20' } },
    );
    expect(rules).toContain('CALL signals are currently switched off.');
    expect(rules).not.toContain('PUT signals are currently switched off.');
    expect(rules).toContain(
      'Trading is paused: setups are still recorded for review, but no orders are placed.',
    );
    expect(rules.join(' ')).toContain('closed at 15:20 IST');
  });

  it('describes demo mode (always-open calendar) without session hours or square-off', () => {
    const text = describeStrategy(DEFAULT_STRATEGY_PARAMS, { session: SESSION, alwaysOpen: true }).join(' ');
    expect(text).toContain('Demo mode: every moment counts as market hours.');
    expect(text).toContain('signals can form at any time of day');
    expect(text).not.toContain('15:00');
    expect(text).not.toContain('15:15');
  });

  it('uses singular wording for one candle and one point', () => {
    const text = describeStrategy(
      { ...DEFAULT_STRATEGY_PARAMS, consecutiveCandles: 1, entryOffset: 1 },
      { session: SESSION },
    ).join(' ');
    expect(text).toContain('the last 1-minute candle of the same trading day');
    expect(text).toContain("the candle's high + 1 point.");
  });
});
