import { describe, expect, it } from 'vitest';
import { toAlphanumericId } from '@optionpilot/engine';
import {
  aliceNumber,
  aliceOrderRowSchema,
  aliceStatus,
  aliceTime,
  formatAliceTime,
  toSnapshot,
} from './wire';

describe('ANT numbers', () => {
  it('reads text with thousands separators, JSON numbers and empty text', () => {
    expect(aliceNumber.parse('1,234.50')).toBe(1234.5);
    expect(aliceNumber.parse(65)).toBe(65);
    expect(aliceNumber.parse('')).toBe(0);
    expect(aliceNumber.safeParse('abc').success).toBe(false);
  });
});

describe('ANT order statuses', () => {
  it.each([
    ['complete', 0, 'FILLED'],
    ['REJECTED', 0, 'REJECTED'],
    ['cancelled', 0, 'CANCELLED'],
    ['CANCELED', 0, 'CANCELLED'],
    ['open', 0, 'ACCEPTED'],
    ['trigger pending', 0, 'ACCEPTED'],
    ['open', 65, 'PARTIALLY_FILLED'],
    [undefined, 0, 'ACCEPTED'],
  ] as const)('%s with %i filled is %s', (status, filled, expected) => {
    expect(aliceStatus(status, filled)).toBe(expected);
  });
});

describe('ANT times', () => {
  it('reads dd/MM/yyyy HH:mm:ss as IST and writes it back', () => {
    const at = aliceTime('26/11/2026 09:15:02');
    expect(at).toBe(Date.UTC(2026, 10, 26, 3, 45, 2));
    expect(formatAliceTime(at ?? 0)).toBe('26/11/2026 09:15:02');
    expect(aliceTime('2026-11-26 09:15:02')).toBeUndefined();
    expect(aliceTime(null)).toBeUndefined();
  });
});

describe('order rows as snapshots', () => {
  const clientOrderId = 'OP-mhx0z2k1-001-abc';
  const row = (over: Record<string, unknown>) =>
    aliceOrderRowSchema.parse({
      Nstordno: 23112600001,
      Status: 'open',
      Qty: '130',
      Prc: '120.50',
      Fillshares: '0',
      Avgprc: '0.00',
      remarks: `OPAL${toAlphanumericId(clientOrderId)}`,
      OrderedTime: '26/11/2026 09:15:02',
      ...over,
    });

  it('carries the client order id back from the tag and the order number as text', () => {
    const snapshot = toSnapshot(row({}), 1);
    expect(snapshot).toMatchObject({
      brokerOrderId: '23112600001',
      clientOrderId,
      status: 'ACCEPTED',
      filledQty: 0,
      time: Date.UTC(2026, 10, 26, 3, 45, 2),
    });
  });

  it('keeps the refusal reason of a rejected order only', () => {
    expect(toSnapshot(row({ Status: 'rejected', RejReason: 'RMS: margin' }), 1).reason).toBe('RMS: margin');
    expect(toSnapshot(row({ RejReason: 'noise' }), 1).reason).toBeUndefined();
  });

  it('reports a partial fill with its average price, and falls back to the clock without a time', () => {
    const snapshot = toSnapshot(row({ Fillshares: '65', Avgprc: '120.25', OrderedTime: '' }), 42);
    expect(snapshot).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: 65, avgPrice: 120.25, time: 42 });
  });
});
