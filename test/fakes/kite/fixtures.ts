// Shared fixtures for tests against the Kite fake: one trader's Kite Connect app and a signed postback body.
import type { KiteFakeApp } from './server';
import { postbackChecksum } from './orderBook';

export const TEST_KITE_APP: KiteFakeApp = {
  apiKey: 'kitekey01',
  apiSecret: 'kitesecret01',
  userId: 'AB1234',
  userName: 'Asha Rao',
  redirectUrl: 'https://op.example/broker/zerodha/callback',
};

/** A COMPLETE postback for order 251124000000001 of TEST_KITE_APP's user, signed with its secret. */
export function signedPostback(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const orderTimestamp = '2026-11-24 09:20:05';
  return {
    user_id: TEST_KITE_APP.userId,
    order_id: '251124000000001',
    order_timestamp: orderTimestamp,
    exchange_update_timestamp: '2026-11-24 09:20:06',
    status: 'COMPLETE',
    tradingsymbol: 'NIFTY26D0124000CE',
    exchange: 'NFO',
    transaction_type: 'BUY',
    order_type: 'LIMIT',
    quantity: 65,
    filled_quantity: 65,
    average_price: 120.5,
    tag: 'OPmhx0z2k1001abc',
    checksum: postbackChecksum('251124000000001', orderTimestamp, TEST_KITE_APP.apiSecret),
    ...overrides,
  };
}
