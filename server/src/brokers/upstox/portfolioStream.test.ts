import { describe, expect, it } from 'vitest';
import { orderRowsOf } from './portfolioStream';

const ORDER = {
  update_type: 'order',
  user_id: '7ABCDE',
  instrument_token: 'NSE_FO|40001',
  order_id: '261123000000001',
  status: 'open',
  quantity: 65,
  filled_quantity: 0,
  average_price: 0,
  tag: 'OPTIONPILOT-OPmis0a1b2001x7k',
  exchange_timestamp: null,
};

describe('orderRowsOf', () => {
  it('reads order updates and skips the other update types and malformed frames', () => {
    expect(orderRowsOf(JSON.stringify(ORDER))).toEqual([
      expect.objectContaining({ order_id: '261123000000001', status: 'open', tag: ORDER.tag }),
    ]);
    expect(orderRowsOf(JSON.stringify({ ...ORDER, update_type: 'position' }))).toEqual([]);
    expect(orderRowsOf(JSON.stringify({ update_type: 'order', status: 'open' }))).toEqual([]);
    expect(orderRowsOf('not json')).toEqual([]);
    expect(orderRowsOf('null')).toEqual([]);
  });
});
