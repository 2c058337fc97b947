import { describe, expect, it } from 'vitest';
import { istDateTime } from '@optionpilot/engine';
import { algoOrderTag } from '../orderTag';
import {
  angelList,
  angelNumber,
  angelOrderRowSchema,
  angelStatus,
  angelTime,
  formatAngelTime,
  toSnapshot,
} from './wire';

describe('SmartAPI wire shapes', () => {
  it('reads numbers sent as numbers or text, an empty text as 0, and null lists as empty', () => {
    expect(angelNumber.parse('15')).toBe(15);
    expect(angelNumber.parse('0.00')).toBe(0);
    expect(angelNumber.parse('')).toBe(0);
    expect(angelNumber.parse(266.94)).toBe(266.94);
    expect(angelNumber.safeParse('abc').success).toBe(false);
    expect(angelList(angelNumber).parse(null)).toEqual([]);
  });

  it('maps lowercase statuses: terminal ones, and every other as live (partly filled once something filled)', () => {
    expect(angelStatus('complete', 65)).toBe('FILLED');
    expect(angelStatus('rejected', 0)).toBe('REJECTED');
    expect(angelStatus('cancelled', 65)).toBe('CANCELLED');
    expect(angelStatus('trigger pending', 0)).toBe('ACCEPTED');
    expect(angelStatus('open', 65)).toBe('PARTIALLY_FILLED');
    expect(angelStatus('some status Angel adds later', 0)).toBe('ACCEPTED');
  });

  it('reads IST times like 06-Jan-2026 10:03:10 and writes them back', () => {
    const at = istDateTime('2026-01-06', '10:03') + 10_000;
    expect(angelTime('06-Jan-2026 10:03:10')).toBe(at);
    expect(formatAngelTime(at)).toBe('06-Jan-2026 10:03:10');
    expect(angelTime('')).toBeUndefined();
    expect(angelTime('2026-01-06 10:03:10')).toBeUndefined();
  });

  it('turns an order row into a snapshot carrying the client order id of its ordertag', () => {
    const clientOrderId = 'OP-mhx0z2k1-001-abc';
    const row = angelOrderRowSchema.parse({
      orderid: 260106000000001,
      ordertag: algoOrderTag('OPTIONPILOT', clientOrderId, 19),
      status: 'rejected',
      orderstatus: 'rejected',
      text: 'RMS: margin exceeds',
      filledshares: '0',
      averageprice: 0,
      quantity: '65',
      updatetime: '06-Jan-2026 10:03:10',
      exchorderupdatetime: '',
    });
    expect(toSnapshot(row, 1)).toEqual({
      clientOrderId,
      brokerOrderId: '260106000000001',
      status: 'REJECTED',
      filledQty: 0,
      avgPrice: 0,
      reason: 'RMS: margin exceeds',
      time: istDateTime('2026-01-06', '10:03') + 10_000,
    });
  });
});
