import { describe, expect, it } from 'vitest';
import { kiteStatus, kiteTime, toSnapshot, type KiteOrder } from './wire';

const order: KiteOrder = {
  order_id: '251124000000001',
  status: 'OPEN',
  status_message: null,
  order_timestamp: '2026-11-24 09:20:05',
  exchange_update_timestamp: '2026-11-24 09:20:06',
  tradingsymbol: 'NIFTY26D0124000CE',
  exchange: 'NFO',
  transaction_type: 'BUY',
  order_type: 'LIMIT',
  quantity: 130,
  filled_quantity: 0,
  average_price: 0,
  price: 122.4,
  trigger_price: 0,
  tag: 'OPmhx0z2k1001abc',
};

describe('Kite wire translation', () => {
  it.each([
    ['COMPLETE', 130, 'FILLED'],
    ['REJECTED', 0, 'REJECTED'],
    ['CANCELLED', 65, 'CANCELLED'],
    ['LAPSED', 0, 'EXPIRED'],
    ['OPEN', 0, 'ACCEPTED'],
    ['OPEN', 65, 'PARTIALLY_FILLED'],
    ['TRIGGER PENDING', 0, 'ACCEPTED'],
    ['PUT ORDER REQ RECEIVED', 0, 'ACCEPTED'],
    ['MODIFY VALIDATION PENDING', 0, 'ACCEPTED'],
  ] as const)('maps %s with %i filled to %s', (status, filled, expected) => {
    expect(kiteStatus(status, filled)).toBe(expected);
  });

  it('reads Kite timestamps as IST', () => {
    expect(kiteTime('2026-11-24 09:20:05')).toBe(Date.parse('2026-11-24T09:20:05+05:30'));
    expect(kiteTime(null)).toBeUndefined();
    expect(kiteTime('2026-11-24T09:20:05')).toBeUndefined();
    expect(kiteTime('2026-13-45 09:20:05')).toBeUndefined();
  });

  it('restores the client order id from the tag and prefers the exchange update time', () => {
    expect(toSnapshot({ ...order, status: 'OPEN', filled_quantity: 65, average_price: 121.9 }, 1)).toEqual({
      clientOrderId: 'OP-mhx0z2k1-001-abc',
      brokerOrderId: '251124000000001',
      status: 'PARTIALLY_FILLED',
      filledQty: 65,
      avgPrice: 121.9,
      time: Date.parse('2026-11-24T09:20:06+05:30'),
    });
  });

  it('leaves the client id out for orders placed by hand, and carries the rejection reason', () => {
    const snapshot = toSnapshot(
      {
        ...order,
        tag: null,
        status: 'REJECTED',
        status_message: 'Insufficient funds',
        exchange_update_timestamp: null,
      },
      5,
    );
    expect(snapshot.clientOrderId).toBeUndefined();
    expect(snapshot.reason).toBe('Insufficient funds');
    expect(snapshot.time).toBe(Date.parse('2026-11-24T09:20:05+05:30'));
  });
});
