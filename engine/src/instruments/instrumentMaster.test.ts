import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCalendarData } from '../calendar/calendarData';
import { parseContractSpecs, underlyingSpec } from '../calendar/contractSpecs';
import { createExchangeCalendar } from '../calendar/exchangeCalendar';
import { createExpiryCalendar } from '../calendar/expiry';
import {
  contractFromSymbol,
  createInMemoryInstrumentMaster,
  generateInstrumentMaster,
  resolveContract,
} from './instrumentMaster';
import { selectStrike } from './strikes';

const readJson = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../data/${name}`, import.meta.url), 'utf8'));
const expiries = createExpiryCalendar(
  createExchangeCalendar(parseCalendarData(readJson('nse-calendar.json'))),
  underlyingSpec(parseContractSpecs(readJson('nse-contracts.json')), 'NIFTY'),
);

describe('generateInstrumentMaster', () => {
  const master = generateInstrumentMaster({
    underlying: 'NIFTY',
    expiries,
    fromDate: '2026-11-18',
    aroundPrice: 24_013,
    weeks: 2,
    strikesEachSide: 2,
  });

  it('lists the holiday-shifted weekly expiries from the calendar', () => {
    expect(master.expiries('NIFTY')).toEqual(['2026-11-23', '2026-12-01']);
    expect(master.expiries('BANKNIFTY')).toEqual([]);
  });

  it('lists CE and PE every 50 points around the price with dated lot size and tick', () => {
    expect(master.strikes('NIFTY', '2026-12-01')).toEqual([23900, 23950, 24000, 24050, 24100]);
    const contracts = master.contracts('NIFTY', '2026-12-01');
    expect(contracts).toHaveLength(10);
    expect(contracts[0]).toEqual({
      symbol: 'NIFTY01DEC2623900CE',
      underlying: 'NIFTY',
      expiry: '2026-12-01',
      strike: 23900,
      optionType: 'CE',
      lotSize: 65,
      tickSize: 0.05,
      brokerTokens: {},
    });
    expect(contracts[1]?.symbol).toBe('NIFTY01DEC2623900PE');
  });

  it('finds a contract by symbol and feeds selectStrike with listed strikes', () => {
    const { strike, optionType } = selectStrike('CALL', 24_013, master.strikes('NIFTY', '2026-11-23'));
    expect(master.contract(`NIFTY23NOV26${strike}${optionType}`)?.strike).toBe(23950);
    expect(master.contract('NIFTY23NOV2699999CE')).toBeUndefined();
  });
});

describe('createInMemoryInstrumentMaster', () => {
  it('keeps broker tokens supplied by an adapter', () => {
    const master = createInMemoryInstrumentMaster([
      {
        symbol: 'NIFTY01DEC2624000CE',
        underlying: 'NIFTY',
        expiry: '2026-12-01',
        strike: 24000,
        optionType: 'CE',
        lotSize: 65,
        tickSize: 0.05,
        brokerTokens: { zerodha: '12345678' },
      },
    ]);
    expect(master.contract('NIFTY01DEC2624000CE')?.brokerTokens.zerodha).toBe('12345678');
  });
});

describe('contractFromSymbol', () => {
  it('describes any canonical symbol with the dated specs', () => {
    expect(contractFromSymbol('NIFTY28NOV2424000PE', expiries)).toMatchObject({ lotSize: 75, strike: 24000 });
    expect(contractFromSymbol('garbage', expiries)).toBeUndefined();
  });
});

describe('resolveContract', () => {
  it('prefers the instrument master over the dated specs', () => {
    const master = createInMemoryInstrumentMaster([
      {
        symbol: 'NIFTY01DEC2624000CE',
        underlying: 'NIFTY',
        expiry: '2026-12-01',
        strike: 24000,
        optionType: 'CE',
        lotSize: 75,
        tickSize: 0.05,
        brokerTokens: {},
      },
    ]);
    expect(resolveContract('NIFTY01DEC2624000CE', { master, expiries })?.lotSize).toBe(75);
    expect(resolveContract('NIFTY01DEC2624050CE', { master, expiries })?.lotSize).toBe(65);
    expect(resolveContract('NIFTY01DEC2624000CE', { expiries })?.lotSize).toBe(65);
  });
});
