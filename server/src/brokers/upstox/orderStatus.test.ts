import { describe, expect, it } from 'vitest';
import { createClientOrderIdFactory } from '@optionpilot/engine';
import {
  clientOrderIdOfTag,
  parseUpstoxTimestamp,
  toBrokerStatus,
  toSnapshot,
  upstoxTag,
} from './orderStatus';

describe('toBrokerStatus', () => {
  it('maps Upstox lowercase statuses once, at the edge', () => {
    expect(toBrokerStatus('complete', 65)).toBe('FILLED');
    expect(toBrokerStatus('rejected', 0)).toBe('REJECTED');
    expect(toBrokerStatus('cancelled', 30)).toBe('CANCELLED');
    expect(toBrokerStatus('cancelled after market order', 0)).toBe('CANCELLED');
    for (const live of [
      'put order req received',
      'validation pending',
      'open pending',
      'open',
      'trigger pending',
      'modify pending',
      'not cancelled',
    ]) {
      expect(toBrokerStatus(live, 0), live).toBe('ACCEPTED');
      expect(toBrokerStatus(live, 10), live).toBe('PARTIALLY_FILLED');
    }
  });
});

describe('order tags', () => {
  it('carry the algo tag and the client order id within 40 characters, and give the id back', () => {
    const next = createClientOrderIdFactory({
      now: () => Date.parse('2026-11-24T04:00:00Z'),
      random: () => 0.5,
    });
    const id = next();
    expect(upstoxTag('OPTIONPILOT', id)).toBe(`OPTIONPILOT-${id.replaceAll('-', '')}`);
    expect(clientOrderIdOfTag(upstoxTag('OPTIONPILOT', id))).toBe(id);
    const long = upstoxTag('A VERY LONG ALGO TAG THAT GOES ON AND ON', id);
    expect(long.length).toBeLessThanOrEqual(40);
    expect(clientOrderIdOfTag(long)).toBe(id);
    expect(clientOrderIdOfTag('manual order')).toBeUndefined();
    expect(clientOrderIdOfTag(null)).toBeUndefined();
  });
});

describe('snapshots', () => {
  it('read Upstox IST timestamps and keep the rejection reason', () => {
    expect(parseUpstoxTimestamp('2026-11-24 09:15:02')).toBe(Date.parse('2026-11-24T09:15:02+05:30'));
    expect(parseUpstoxTimestamp('24-Nov-2026 09:15:02')).toBeUndefined();
    const snapshot = toSnapshot(
      {
        order_id: '1',
        status: 'rejected',
        filled_quantity: 0,
        status_message: 'Insufficient funds',
        exchange_timestamp: null,
        order_timestamp: '2026-11-24 09:15:02',
        tag: null,
      },
      5,
    );
    expect(snapshot).toEqual({
      brokerOrderId: '1',
      status: 'REJECTED',
      filledQty: 0,
      avgPrice: 0,
      reason: 'Insufficient funds',
      time: Date.parse('2026-11-24T09:15:02+05:30'),
    });
  });
});
