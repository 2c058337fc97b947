import { describe, expect, it } from 'vitest';
import { toAlphanumericId } from '@optionpilot/engine';
import { dhanStatus, dhanTime, formatDhanTime, toSnapshot, type DhanOrderRow } from './wire';
import { orderRowOf } from './orderUpdates';

describe('Dhan wire', () => {
  it.each([
    ['TRADED', 65, 'FILLED'],
    ['Traded', 65, 'FILLED'],
    ['REJECTED', 0, 'REJECTED'],
    ['CANCELLED', 0, 'CANCELLED'],
    ['EXPIRED', 0, 'EXPIRED'],
    ['PART_TRADED', 65, 'PARTIALLY_FILLED'],
    ['PENDING', 0, 'ACCEPTED'],
    ['TRANSIT', 0, 'ACCEPTED'],
    ['TRIGGERED', 0, 'ACCEPTED'],
    ['SOMETHING_NEW', 0, 'ACCEPTED'],
  ] as const)('reads %s with %d filled as %s', (status, filled, expected) => {
    expect(dhanStatus(status, filled)).toBe(expected);
  });

  it('reads and writes Dhan times as IST', () => {
    expect(dhanTime('2026-11-24 13:33:03')).toBe(Date.parse('2026-11-24T13:33:03+05:30'));
    expect(dhanTime('24/11/2026')).toBeUndefined();
    expect(formatDhanTime(Date.parse('2026-11-24T08:03:03Z'))).toBe('2026-11-24 13:33:03');
  });

  it('takes the client order id back from correlationId and the rejection reason', () => {
    const id = 'OP-mhx0z2k1-001-abc';
    const row: DhanOrderRow = {
      orderId: '52611000001',
      correlationId: `OPALGO${toAlphanumericId(id)}`,
      orderStatus: 'REJECTED',
      quantity: 65,
      price: 120,
      triggerPrice: 0,
      filledQty: 0,
      averageTradedPrice: 0,
      omsErrorDescription: 'RMS:Margin Exceeds',
      exchangeTime: '2026-11-24 13:33:03',
    };
    expect(toSnapshot(row, 0)).toEqual({
      clientOrderId: id,
      brokerOrderId: '52611000001',
      status: 'REJECTED',
      filledQty: 0,
      avgPrice: 0,
      reason: 'RMS:Margin Exceeds',
      time: Date.parse('2026-11-24T13:33:03+05:30'),
    });
  });

  it('reads an order_alert of the order update socket into an order row, and nothing else', () => {
    const row = orderRowOf(
      JSON.stringify({
        Type: 'order_alert',
        Data: {
          OrderNo: 52611000002,
          Status: 'Part_Traded',
          Quantity: 130,
          TradedQty: 65,
          AvgTradedPrice: 121.5,
          CorrelationId: 'x',
        },
      }),
    );
    expect(row).toMatchObject({
      orderId: '52611000002',
      orderStatus: 'Part_Traded',
      filledQty: 65,
      averageTradedPrice: 121.5,
    });
    expect(toSnapshot(row!, 5).status).toBe('PARTIALLY_FILLED');
    expect(orderRowOf('{"Type":"login_ack"}')).toBeUndefined();
    expect(orderRowOf('not json')).toBeUndefined();
  });
});
