import { describe, expect, it } from 'vitest';
import type { Candle, IntervalMinutes, SessionCalendar, Tick } from '../core/types';
import { ist, istTestCalendar } from '../candles/testCalendars';
import { ConsecutiveBreakout } from './consecutiveBreakout';
import { DEFAULT_STRATEGY_PARAMS } from './params';
import type { StrategyParams } from './params';
import type { StrategyEvent } from './signal';

const MIN = 60_000;
const MON = '2026-01-05';
const TUE = '2026-01-06';
const calendar = istTestCalendar();

/** Closed candles of `interval` minutes starting at `date time` IST, one per [open, close] body; `null` skips one. */
function candles(
  date: string,
  time: string,
  bodies: readonly ([number, number] | null)[],
  interval: IntervalMinutes = 1,
): Candle[] {
  const start = ist(date, time);
  const out: Candle[] = [];
  bodies.forEach((body, i) => {
    if (body === null) return;
    const [open, close] = body;
    out.push({
      interval,
      time: start + i * interval * MIN,
      open,
      high: Math.max(open, close) + 1,
      low: Math.min(open, close) - 1,
      close,
      volume: 0,
      closed: true,
    });
  });
  return out;
}

const bull = (from: number, body = 6): [number, number] => [from, from + body];
const bear = (from: number, body = 6): [number, number] => [from, from - body];

function run(
  series: readonly Candle[],
  params: Partial<StrategyParams> = {},
  cal: SessionCalendar = calendar,
) {
  const machine = new ConsecutiveBreakout({
    calendar: cal,
    params: { ...DEFAULT_STRATEGY_PARAMS, ...params },
  });
  const events: StrategyEvent[] = [];
  for (const c of series) events.push(...machine.onCandle(c));
  return { machine, events, signals: events.filter((e) => e.kind !== 'expired').map((e) => e.signal) };
}

describe('ConsecutiveBreakout setups', () => {
  it('arms a CALL after N bullish candles with trigger high + E, priced at the setup close', () => {
    const { events, machine } = run(candles(MON, '10:00', [bull(100, 6.2), bull(106, 5.4), bull(112, 9.1)]));
    expect(events).toHaveLength(1);
    const signal = events[0]?.signal;
    expect(events[0]?.kind).toBe('armed');
    expect(signal).toEqual({
      key: `CALL-1m-${ist(MON, '10:02')}`,
      time: ist(MON, '10:03'),
      type: 'CALL',
      condition: '3 bullish 1m candles, each close−open ≥ 5 pts (+6.2, +5.4, +9.1)',
      entryTrigger: 124.1,
      niftyPrice: 121.1,
      setupCandleTime: ist(MON, '10:02'),
      interval: 1,
      expiresAt: ist(MON, '10:04'),
      status: 'armed',
      executed: false,
    });
    expect(machine.armed).toBe(signal);
    expect(Object.isFrozen(signal)).toBe(true);
  });

  it('arms a PUT after N bearish candles with trigger low − E', () => {
    const { signals } = run(candles(MON, '10:00', [bear(200), bear(194, 7), bear(187, 5)]));
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      type: 'PUT',
      entryTrigger: 179, // low 181 − 2
      niftyPrice: 182,
      condition: '3 bearish 1m candles, each open−close ≥ 5 pts (−6, −7, −5)',
    });
  });

  const table: {
    name: string;
    series: Candle[];
    params?: Partial<StrategyParams>;
    expected: { type: 'CALL' | 'PUT'; time: number; status?: string }[];
  }[] = [
    {
      name: 'a doji breaks the run even with M = 0',
      series: candles(MON, '10:00', [bull(100), [106, 106], bull(106)]),
      params: { minMovement: 0 },
      expected: [],
    },
    {
      name: 'a body below M breaks the run',
      series: candles(MON, '10:00', [bull(100), bull(106, 4.95), bull(111)]),
      expected: [],
    },
    {
      name: 'a body of exactly M counts despite binary rounding (22005.3 − 22000.3)',
      series: candles(MON, '10:00', [bull(21990), bull(21996), [22000.3, 22005.3]]),
      expected: [{ type: 'CALL', time: ist(MON, '10:03') }],
    },
    {
      name: 'N + 1 bullish candles give two signals',
      series: candles(MON, '10:00', [bull(100), bull(106), bull(112), bull(118)]),
      expected: [
        { type: 'CALL', time: ist(MON, '10:03') },
        { type: 'CALL', time: ist(MON, '10:04') },
      ],
    },
    {
      name: 'a mixed run fires only once the last N agree',
      series: candles(MON, '10:00', [bull(100), bear(106), bull(100), bull(106), bull(112)]),
      expected: [{ type: 'CALL', time: ist(MON, '10:05') }],
    },
    {
      name: 'an interval with no candle does not break the run',
      series: candles(MON, '10:00', [bull(100), bull(106), null, bull(112)]),
      expected: [{ type: 'CALL', time: ist(MON, '10:04') }],
    },
    {
      name: 'a run never spans two trading days',
      series: [
        ...candles(MON, '15:27', [bull(100), bull(106)]),
        ...candles(TUE, '09:15', [bull(112), bull(118)]),
      ],
      expected: [],
    },
    {
      name: 'the first N candles of a new day can set up',
      series: [
        ...candles(MON, '15:27', [bull(100), bull(106)]),
        ...candles(TUE, '09:15', [bull(112), bull(118), bull(124)]),
      ],
      expected: [{ type: 'CALL', time: ist(TUE, '09:18') }],
    },
    {
      name: 'entry window: a close at 15:00 qualifies, 15:01 does not',
      series: candles(MON, '14:57', [bull(100), bull(106), bull(112), bull(118)]),
      expected: [{ type: 'CALL', time: ist(MON, '15:00') }],
    },
    {
      name: 'entry window: the first candle closing at 09:16 qualifies (after 09:15)',
      series: candles(MON, '09:15', [bull(100)]),
      params: { consecutiveCandles: 1 },
      expected: [{ type: 'CALL', time: ist(MON, '09:16') }],
    },
    {
      name: 'entry window uses the 5-minute close: 14:55 candle closes at 15:00, 15:00 candle at 15:05',
      series: candles(MON, '14:55', [bull(100), bull(106)], 5),
      params: { consecutiveCandles: 1, interval: 5 },
      expected: [{ type: 'CALL', time: ist(MON, '15:00') }],
    },
    {
      name: 'a disabled side gives no signal; the other side still does',
      series: candles(MON, '10:00', [bull(100), bull(106), bull(112), bear(118), bear(112), bear(106)]),
      params: { callEnabled: false },
      expected: [{ type: 'PUT', time: ist(MON, '10:06') }],
    },
    {
      name: 'PUT disabled',
      series: candles(MON, '10:00', [bear(118), bear(112), bear(106)]),
      params: { putEnabled: false },
      expected: [],
    },
    {
      name: 'trading disabled: the setup is recorded as suppressed, not armed',
      series: candles(MON, '10:00', [bull(100), bull(106), bull(112)]),
      params: { tradingEnabled: false },
      expected: [{ type: 'CALL', time: ist(MON, '10:03'), status: 'suppressed' }],
    },
    {
      name: 'N = 2, M = 10',
      series: candles(MON, '10:00', [bull(100, 10), bull(110, 9.95), bull(120, 10), bull(130, 12)]),
      params: { consecutiveCandles: 2, minMovement: 10 },
      expected: [{ type: 'CALL', time: ist(MON, '10:04') }],
    },
    {
      name: 'candles of another interval than the parameters are not evaluated',
      series: candles(MON, '10:00', [bull(100), bull(106), bull(112)], 5),
      expected: [],
    },
  ];

  it.each(table)('$name', ({ series, params, expected }) => {
    const { signals } = run(series, params);
    expect(signals.map((s) => ({ type: s.type, time: s.time, status: s.status }))).toEqual(
      expected.map((e) => ({ status: 'armed', ...e })),
    );
  });

  it('a suppressed signal carries a reason and is never executed by a crossing tick', () => {
    const { machine, signals } = run(candles(MON, '10:00', [bull(100), bull(106), bull(112)]), {
      tradingEnabled: false,
    });
    expect(signals[0]).toMatchObject({
      executed: false,
      reason: 'trading is disabled (tradingEnabled = false)',
    });
    expect(machine.armed).toBeUndefined();
    expect(machine.onTick({ time: ist(MON, '10:03:10'), price: 1000, volume: 0 })).toBeUndefined();
  });

  it('new parameters take effect at the next candle close, not retroactively', () => {
    const machine = new ConsecutiveBreakout({ calendar });
    const series = candles(MON, '10:00', [bull(100), bull(106), bull(112)]);
    expect(machine.onCandle(series[0] as Candle)).toEqual([]);
    machine.setParams({ ...DEFAULT_STRATEGY_PARAMS, consecutiveCandles: 2, entryOffset: 5 });
    expect(machine.params.consecutiveCandles).toBe(3);
    const events = machine.onCandle(series[1] as Candle);
    expect(machine.params.consecutiveCandles).toBe(2);
    expect(events.map((e) => [e.kind, e.signal.entryTrigger])).toEqual([['armed', 113 + 5]]);
  });

  it('forming candles are ignored', () => {
    const { signals } = run(
      candles(MON, '10:00', [bull(100), bull(106), bull(112)]).map((c) => ({ ...c, closed: false })),
    );
    expect(signals).toEqual([]);
  });
});

describe('ConsecutiveBreakout execution', () => {
  // Setup closes at 10:03, armed for [10:03, 10:04), CALL trigger 124.1, PUT trigger below.
  const setup = candles(MON, '10:00', [bull(100, 6.2), bull(106, 5.4), bull(112, 9.1)]);
  const at = (time: string, price: number): Tick => ({ time: ist(MON, time), price, volume: 0 });

  function armed(cal: SessionCalendar = calendar) {
    const { machine } = run(setup, {}, cal);
    return machine;
  }

  it('executes at the first tick at or above the trigger inside the next interval', () => {
    const machine = armed();
    expect(machine.onTick(at('10:03:00', 124))).toBeUndefined();
    const event = machine.onTick(at('10:03:20', 124.1));
    expect(event?.kind).toBe('executed');
    expect(event?.signal).toMatchObject({
      status: 'executed',
      executed: true,
      executedAt: ist(MON, '10:03:20'),
      executedPrice: 124.1,
      key: `CALL-1m-${ist(MON, '10:02')}`,
    });
    expect(machine.armed).toBeUndefined();
    expect(machine.onTick(at('10:03:30', 130))).toBeUndefined();
  });

  it('a tick exactly at the expiry boundary does not execute: it expires the signal', () => {
    const machine = armed();
    const event = machine.onTick(at('10:04:00', 200));
    expect(event?.kind).toBe('expired');
    expect(event?.signal).toMatchObject({ status: 'expired', executed: false });
    expect(event?.signal.reason).toContain('124.1');
  });

  it('expires when time passes the interval end without a tick', () => {
    const machine = armed();
    expect(machine.advanceTo(ist(MON, '10:03:59.999'))).toBeUndefined();
    expect(machine.advanceTo(ist(MON, '10:04'))?.kind).toBe('expired');
    expect(machine.armed).toBeUndefined();
  });

  it('an unexecuted signal expires at the next close before the next setup arms', () => {
    const { events } = run([...setup, ...candles(MON, '10:03', [bull(121.1)])]);
    expect(events.map((e) => [e.kind, e.signal.time])).toEqual([
      ['armed', ist(MON, '10:03')],
      ['expired', ist(MON, '10:03')],
      ['armed', ist(MON, '10:04')],
    ]);
  });

  it('a tick before the armed interval, or older than one already seen in it, never executes', () => {
    const machine = armed();
    expect(machine.onTick(at('10:02:59', 500))).toBeUndefined();
    expect(machine.onTick(at('10:03:10', 100))).toBeUndefined();
    expect(machine.onTick(at('10:03:05', 500))).toBeUndefined();
    expect(machine.armed).toBeDefined();
  });

  it('a tick outside the session never executes', () => {
    const outage = ist(MON, '10:03:30');
    const base = istTestCalendar();
    const machine = armed({ ...base, isInSession: (t) => t !== outage && base.isInSession(t) });
    expect(machine.onTick({ time: outage, price: 500, volume: 0 })).toBeUndefined();
    expect(machine.onTick(at('10:03:31', 500))?.kind).toBe('executed');
  });

  it('a PUT executes at or below its trigger', () => {
    const { machine } = run(candles(MON, '10:00', [bear(200), bear(194), bear(188)]));
    // low of the last candle is 181, trigger 179
    expect(machine.onTick(at('10:03:01', 179.05))).toBeUndefined();
    expect(machine.onTick(at('10:03:02', 179))?.signal).toMatchObject({ type: 'PUT', executedPrice: 179 });
  });
});
