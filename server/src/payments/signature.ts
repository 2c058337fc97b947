// Razorpay's checkout signature: hex(hmac_sha256(order_id + "|" + payment_id, key_secret)). The test mode signs
// with a server-side test secret through the same functions, so verification is one code path.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signature Razorpay returns from checkout for `orderId` and `paymentId`. */
export function checkoutSignature(orderId: string, paymentId: string, secret: string): string {
  return createHmac('sha256', secret).update(`${orderId}|${paymentId}`, 'utf8').digest('hex');
}

/** Constant-time check of a checkout signature; a malformed signature is simply false. */
export function isValidCheckoutSignature(props: {
  orderId: string;
  paymentId: string;
  signature: string;
  secret: string;
}): boolean {
  if (!/^[0-9a-f]{64}$/.test(props.signature)) return false;
  const expected = Buffer.from(checkoutSignature(props.orderId, props.paymentId, props.secret), 'hex');
  const given = Buffer.from(props.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Razorpay's webhook signature: hex(hmac_sha256(raw_body, webhook_secret)) over the bytes as received. */
export function webhookSignature(rawBody: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** Constant-time check of `X-Razorpay-Signature`; a missing or malformed header is simply false. */
export function isValidWebhookSignature(props: {
  rawBody: string | Buffer;
  signature: string | undefined;
  secret: string;
}): boolean {
  if (!props.signature || !/^[0-9a-f]{64}$/.test(props.signature)) return false;
  const expected = Buffer.from(webhookSignature(props.rawBody, props.secret), 'hex');
  const given = Buffer.from(props.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
