// ANT's WebSocket (`<ALICEBLUE_WS_ROOT>/NorenWS/`), a NOREN-protocol socket of JSON text frames, shared by the
// market feed and the order updates. Before connecting, a socket session is made over REST
// (`POST …/api/ws/createSocketSess {loginType: "API"}`); the first frame then logs in with
// `{t: "c", uid: "<userId>_API", actid: "<userId>_API", susertoken: sha256(sha256(userSession)), source: "API"}`,
// answered `{t: "ck", s: "OK"}`. Subscriptions name `EXCH|token` keys joined by `#` (`{t: "t", k}` touchline,
// `{t: "u", k}` to stop); prices arrive as `{t: "tk"}` (the first, full) then `{t: "tf"}` (only what changed).
// Order updates are NOREN's `{t: "o", actid}` subscription, acknowledged `{t: "ok"}`, then `{t: "om", norenordno,
// status, …}` messages (**verify**: ANT documents the feed frames, not the order ones). A `{t: "h"}` heartbeat
// keeps the socket open.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { aliceNumber, aliceOrderRowSchema, type AliceOrderRow } from './wire';

export const NOREN_PATH = '/NorenWS/';

/** The NIFTY 50 index on ANT's feed. */
export const NIFTY_INDEX_KEY = 'NSE|26000';

/** The login frame's token: hex(sha256(hex(sha256(userSession)))). */
export function norenToken(userSession: string): string {
  const once = createHash('sha256').update(userSession).digest('hex');
  return createHash('sha256').update(once).digest('hex');
}

/** The socket's login frame. */
export function norenLoginFrame(userId: string, userSession: string): string {
  const uid = `${userId}_API`;
  return JSON.stringify({ t: 'c', uid, actid: uid, susertoken: norenToken(userSession), source: 'API' });
}

export const NOREN_HEARTBEAT = JSON.stringify({ t: 'h' });

/** Touchline subscribe / unsubscribe of `EXCH|token` keys. */
export function norenTouchline(action: 'subscribe' | 'unsubscribe', keys: readonly string[]): string {
  return JSON.stringify({ t: action === 'subscribe' ? 't' : 'u', k: keys.join('#') });
}

/** The order-update subscription of an account. */
export function norenOrderSubscription(userId: string): string {
  return JSON.stringify({ t: 'o', actid: `${userId}_API` });
}

const priceField = aliceNumber.optional().catch(undefined);
const frameSchema = z
  .object({
    t: z.string(),
    s: z.string().optional(),
    e: z.string().optional(),
    tk: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string()).optional(),
    lp: priceField,
    bp1: priceField,
    sp1: priceField,
  })
  .passthrough();

/** One text frame, read. */
export type NorenFrame =
  | { readonly kind: 'login'; readonly ok: boolean }
  /** the order subscription acknowledged (`{t: "ok"}`) */
  | { readonly kind: 'orders' }
  | {
      readonly kind: 'price';
      readonly key: string;
      readonly ltp?: number | undefined;
      readonly bid?: number | undefined;
      readonly ask?: number | undefined;
    }
  | { readonly kind: 'order'; readonly row: AliceOrderRow }
  | { readonly kind: 'other' };

/** NOREN's order message fields → ANT's order-book names, so one row schema reads both. */
function orderRowOf(message: Record<string, unknown>): AliceOrderRow | undefined {
  const parsed = aliceOrderRowSchema.safeParse({
    Nstordno: message.norenordno,
    Status: message.status,
    Trantype: message.trantype,
    Prctype: message.prctyp,
    Pcode: message.prd,
    Exchange: message.exch,
    Trsym: message.tsym,
    token: message.token,
    Qty: message.qty,
    Prc: message.prc,
    Trgprc: message.trgprc,
    Avgprc: message.avgprc,
    Fillshares: message.fillshares,
    RejReason: message.rejreason,
    remarks: message.remarks,
  });
  return parsed.success ? parsed.data : undefined;
}

/** A text frame as the feed and the order stream read it; anything unknown is `other`. */
export function readNorenFrame(text: string): NorenFrame {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'other' };
  }
  const parsed = frameSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'other' };
  const frame = parsed.data;
  switch (frame.t) {
    case 'ck':
      return { kind: 'login', ok: (frame.s ?? '').toUpperCase() === 'OK' };
    case 'ok':
      return { kind: 'orders' };
    case 'tk':
    case 'tf':
      if (frame.e === undefined || frame.tk === undefined) return { kind: 'other' };
      return { kind: 'price', key: `${frame.e}|${frame.tk}`, ltp: frame.lp, bid: frame.bp1, ask: frame.sp1 };
    case 'om': {
      const row = orderRowOf(frame);
      return row === undefined ? { kind: 'other' } : { kind: 'order', row };
    }
    default:
      return { kind: 'other' };
  }
}
