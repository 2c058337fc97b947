import { describe, expect, it } from 'vitest';
import { BrokerError } from '@optionpilot/engine';
import { InstrumentBook } from './book';

const OPTION = {
  token: '45001',
  tradingSymbol: 'NIFTY01DEC26C24000',
  expiry: '2026-12-01',
  strike: 24_000,
  optionType: 'CE' as const,
  lotSize: 65,
  tickSize: 0.05,
};

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as BrokerError,
  );

describe('InstrumentBook.forOrder', () => {
  it('gives the instrument of a listed canonical symbol, and maps its token back', async () => {
    const book = new InstrumentBook(
      () => Promise.resolve([OPTION]),
      () => Date.UTC(2026, 10, 26),
      'token',
    );
    expect(await book.forOrder('NIFTY01DEC2624000CE', 'aliceblue', 'the master')).toEqual(OPTION);
    expect(book.canonicalOf('45001')).toBe('NIFTY01DEC2624000CE');
  });

  it('refuses (nothing sent) a symbol the master does not list, and a master that cannot be had', async () => {
    const listed = new InstrumentBook(
      () => Promise.resolve([OPTION]),
      () => 0,
    );
    const unknown = await refusal(listed.forOrder('NIFTY01DEC2624050CE', 'aliceblue', 'the master'));
    expect(unknown).toBeInstanceOf(BrokerError);
    expect(unknown).toMatchObject({ kind: 'rejected', code: 'UNKNOWN_INSTRUMENT', broker: 'aliceblue' });
    const down = new InstrumentBook(
      () => Promise.reject(new Error('offline')),
      () => 0,
    );
    expect(await refusal(down.forOrder('NIFTY01DEC2624000CE', 'aliceblue', 'the master'))).toMatchObject({
      kind: 'rejected',
      code: 'NO_INSTRUMENT_MASTER',
    });
  });
});
