// Razorpay-shaped ids: a prefix and 14 alphanumeric characters (`order_…`, `pay_…`, `rfnd_…`, `acc_…`).
import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 14 random alphanumeric characters, optionally after `prefix_`. */
export function entityId(prefix?: string): string {
  let id = '';
  for (const b of randomBytes(14)) id += ALPHANUMERIC[b % ALPHANUMERIC.length];
  return prefix ? `${prefix}_${id}` : id;
}
