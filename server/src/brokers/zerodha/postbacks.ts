// Kite postbacks: Kite POSTs an order's JSON to the app's postback URL on COMPLETE, CANCELLED, REJECTED and
// UPDATE, signed with checksum = hex(sha256(order_id + order_timestamp + api_secret)). The hub routes a verified
// postback to the live adapter of that Kite user; anything unsigned, mis-signed or for nobody is refused.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { BrokerPostback } from '../types';
import type { KitePostback } from './wire';
import { kitePostbackSchema } from './wire';

export function postbackChecksum(orderId: string, orderTimestamp: string, apiSecret: string): string {
  return createHash('sha256')
    .update(orderId + orderTimestamp + apiSecret)
    .digest('hex');
}

/** True when the postback's checksum matches the app's secret (compared in constant time). */
export function verifyPostback(postback: KitePostback, apiSecret: string): boolean {
  const expected = Buffer.from(
    postbackChecksum(postback.order_id, postback.order_timestamp, apiSecret),
    'utf8',
  );
  const given = Buffer.from(postback.checksum, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A live adapter's registration: the app secret that signs its postbacks and where they go. */
export interface PostbackReceiver {
  readonly apiSecret: string;
  deliver(postback: KitePostback): void;
}

/** Why a postback was not delivered. */
export type PostbackOutcome = 'delivered' | 'invalid' | 'unknown_user' | 'bad_checksum';

/** Live Kite adapters by Kite user id (one account logs in once a day, so one receiver per user). */
export class KitePostbackHub {
  private readonly receivers = new Map<string, PostbackReceiver>();

  /** Registers the adapter of a Kite user; returns the function that unregisters it (only if still current). */
  register(userId: string, receiver: PostbackReceiver): () => void {
    this.receivers.set(userId, receiver);
    return () => {
      if (this.receivers.get(userId) === receiver) this.receivers.delete(userId);
    };
  }

  /** Verifies and delivers one postback body. */
  receive(body: unknown): PostbackOutcome {
    const parsed = kitePostbackSchema.safeParse(body);
    if (!parsed.success) return 'invalid';
    return this.receiveParsed(parsed.data);
  }

  /** Verifies and delivers a postback already parsed with `kitePostbackSchema` (the route parses it once). */
  receiveParsed(postback: KitePostback): Exclude<PostbackOutcome, 'invalid'> {
    const receiver = this.receivers.get(postback.user_id);
    if (receiver === undefined) return 'unknown_user';
    if (!verifyPostback(postback, receiver.apiSecret)) return 'bad_checksum';
    receiver.deliver(postback);
    return 'delivered';
  }
}

/** The hub as the module's postback endpoint (`POST /api/broker/zerodha/postback`). */
export function kitePostbackEndpoint(hub: KitePostbackHub): BrokerPostback {
  return {
    schema: kitePostbackSchema,
    receive(body) {
      // The route parsed the body with `schema` already: a second parse of every postback is wasted work.
      const outcome = hub.receiveParsed(body as KitePostback);
      if (outcome === 'delivered') return 'accepted';
      if (outcome === 'unknown_user') return 'unknown_account';
      // An `invalid` body never gets here: the route parses it with `schema` first.
      return 'bad_signature';
    },
  };
}
