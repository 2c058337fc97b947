import { describe, expect, it } from 'vitest';
import { checkoutSignature, isValidCheckoutSignature } from './signature';

// Computed independently: printf 'order_IluGWxBm9U8zJ8|pay_IluGWxBm9U8zJ9' | openssl dgst -sha256 -hmac '…'
const VECTOR = {
  orderId: 'order_IluGWxBm9U8zJ8',
  paymentId: 'pay_IluGWxBm9U8zJ9',
  secret: 'EnLs21M47BllR3X8PSFtjtbd',
  signature: '3ea8df409715997d22a58eddd95f5825c56810982a63a896886a98fa4b8110c4',
};

describe('checkout signatures', () => {
  it("match Razorpay's formula hex(hmac_sha256(order_id|payment_id, secret))", () => {
    expect(checkoutSignature(VECTOR.orderId, VECTOR.paymentId, VECTOR.secret)).toBe(VECTOR.signature);
    expect(isValidCheckoutSignature(VECTOR)).toBe(true);
  });

  it('refuse a changed order, payment, secret or signature', () => {
    expect(isValidCheckoutSignature({ ...VECTOR, orderId: 'order_IluGWxBm9U8zJ7' })).toBe(false);
    expect(isValidCheckoutSignature({ ...VECTOR, paymentId: 'pay_other' })).toBe(false);
    expect(isValidCheckoutSignature({ ...VECTOR, secret: 'another' })).toBe(false);
    const flipped = (VECTOR.signature[0] === 'a' ? 'b' : 'a') + VECTOR.signature.slice(1);
    expect(isValidCheckoutSignature({ ...VECTOR, signature: flipped })).toBe(false);
  });

  it('refuse malformed signatures without throwing', () => {
    expect(isValidCheckoutSignature({ ...VECTOR, signature: VECTOR.signature.slice(2) })).toBe(false);
    expect(isValidCheckoutSignature({ ...VECTOR, signature: VECTOR.signature.toUpperCase() })).toBe(false);
    expect(isValidCheckoutSignature({ ...VECTOR, signature: 'z'.repeat(64) })).toBe(false);
    expect(isValidCheckoutSignature({ ...VECTOR, signature: '' })).toBe(false);
  });
});
