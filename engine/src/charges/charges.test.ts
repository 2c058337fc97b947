import { describe, expect, it } from 'vitest';
import { NSE_OPTION_CHARGES, roundTripCharges } from './charges';

describe('roundTripCharges', () => {
  it('itemises a 1-lot NIFTY round trip (hand-computed)', () => {
    // buy 65 @ 100 (₹6,500), sell 65 @ 120 (₹7,800); turnover ₹14,300
    // brokerage 2 × 20 = 40; STT 0.1% × 7,800 = 7.80; NSE 0.03503% × 14,300 = 5.00929 → 5.01;
    // SEBI 14,300 × 10 / 1e7 = 0.0143 → 0.01; stamp 0.003% × 6,500 = 0.195 → 0.20 (half up);
    // GST 18% × (40 + 5.01 + 0.01) = 8.1036 → 8.10; total 61.12
    expect(roundTripCharges({ buyPremium: 100, sellPremium: 120, quantity: 65 })).toEqual({
      brokerage: 40,
      stt: 7.8,
      exchange: 5.01,
      sebi: 0.01,
      stamp: 0.2,
      gst: 8.1,
      total: 61.12,
    });
  });

  it('itemises a losing 3-lot trade with tick premiums (hand-computed)', () => {
    // buy 195 @ 152.35 = 29,708.25; sell 195 @ 131.05 = 25,554.75; turnover 55,263.00
    // STT 25.55475 → 25.55; NSE 19.35863… → 19.36; SEBI 0.0552… → 0.06; stamp 0.8912… → 0.89;
    // GST 18% × (40 + 19.36 + 0.06) = 10.6956 → 10.70; total 40 + 25.55 + 19.36 + 0.06 + 0.89 + 10.70 = 96.56
    expect(roundTripCharges({ buyPremium: 152.35, sellPremium: 131.05, quantity: 195 })).toEqual({
      brokerage: 40,
      stt: 25.55,
      exchange: 19.36,
      sebi: 0.06,
      stamp: 0.89,
      gst: 10.7,
      total: 96.56,
    });
  });

  it('charges brokerage per executed order when a freeze split made several', () => {
    const split = roundTripCharges({
      buyPremium: 100,
      sellPremium: 100,
      quantity: 65,
      buyOrders: 2,
      sellOrders: 2,
    });
    expect(split.brokerage).toBe(80);
  });

  it('reads every rate from the table', () => {
    const zeroBrokerage = roundTripCharges(
      { buyPremium: 100, sellPremium: 120, quantity: 65 },
      { ...NSE_OPTION_CHARGES, brokeragePerOrder: 0 },
    );
    expect(zeroBrokerage.brokerage).toBe(0);
    expect(zeroBrokerage.gst).toBe(0.9); // 18% × 5.02 = 0.9036
  });

  it('refuses negative inputs', () => {
    expect(() => roundTripCharges({ buyPremium: -1, sellPremium: 1, quantity: 65 })).toThrow(RangeError);
  });
});
