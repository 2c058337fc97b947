/**
 * Client order ids: `OP-<time>-<seq>-<rand>`, made by the engine before any broker call.
 *
 * - `time`: epoch ms in base 36, 8 characters (fixed width until the year 2059);
 * - `seq`: a per-factory counter, 3 base-36 characters (wraps at 46,656; with the time part it would need 46,656
 *   orders in one millisecond from one process to repeat);
 * - `rand`: 3 base-36 characters from the injected random source, so two processes (a restart, a second server)
 *   issuing in the same millisecond with the same counter still differ.
 *
 * 19 characters in all: brokers copy it into their order tag field, and the tightest limit among the supported
 * brokers is 20 characters (Kite `tag`, Angel One `ordertag`). Kite's tag is documented as alphanumeric, so
 * `toAlphanumericId` drops the dashes (16 characters) and, because every part has a fixed width,
 * `fromAlphanumericId` restores the id from a broker's echo.
 */

const PREFIX = 'OP';
const TIME_WIDTH = 8;
const SEQ_WIDTH = 3;
const RAND_WIDTH = 3;
const SEQ_SPACE = 36 ** SEQ_WIDTH;
const RAND_SPACE = 36 ** RAND_WIDTH;

/** The longest id `createClientOrderIdFactory` makes. */
export const CLIENT_ORDER_ID_LENGTH = PREFIX.length + 3 + TIME_WIDTH + SEQ_WIDTH + RAND_WIDTH;

const ID_PATTERN = /^OP-[0-9a-z]{8}-[0-9a-z]{3}-[0-9a-z]{3}$/;
const ALNUM_PATTERN = /^OP[0-9a-z]{14}$/;

/** Options of `createClientOrderIdFactory`. */
export interface ClientOrderIdOptions {
  /** the engine's clock (epoch ms) */
  readonly now: () => number;
  /** uniform in [0, 1); injected so tests and backtests are repeatable */
  readonly random?: () => number;
}

function base36(value: number, width: number): string {
  return value.toString(36).padStart(width, '0').slice(-width);
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `base36(value, 3)` for 0 ≤ value < 36³ by digit lookup: `toString(36)` costs ~1 µs, and every order needs two. */
function base36x3(value: number): string {
  return (
    DIGITS.charAt(Math.floor(value / 1_296)) +
    DIGITS.charAt(Math.floor(value / 36) % 36) +
    DIGITS.charAt(value % 36)
  );
}

/** Creates a generator of unique client order ids (`OP-<base36 time>-<seq>-<rand>`, 19 characters). */
export function createClientOrderIdFactory(options: ClientOrderIdOptions): () => string {
  const random = options.random ?? Math.random;
  let seq = 0;
  // A fan-out makes hundreds of ids within one millisecond: format the time part once per millisecond.
  let lastMs = Number.NaN;
  let timePart = '';
  return () => {
    const ms = Math.max(0, Math.floor(options.now()));
    if (ms !== lastMs) {
      lastMs = ms;
      timePart = base36(ms, TIME_WIDTH);
    }
    const id = `${PREFIX}-${timePart}-${base36x3(seq)}-${base36x3(Math.floor(random() * RAND_SPACE) % RAND_SPACE)}`;
    seq = (seq + 1) % SEQ_SPACE;
    return id;
  };
}

/** True when `value` has the shape of an engine client order id. */
export function isClientOrderId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** The id without dashes (16 characters), for brokers whose tag field is alphanumeric only. */
export function toAlphanumericId(clientOrderId: string): string {
  return clientOrderId.replaceAll('-', '');
}

/** Restores a client order id from its alphanumeric form, or undefined when `tag` is not one. */
export function fromAlphanumericId(tag: string): string | undefined {
  if (!ALNUM_PATTERN.test(tag)) return undefined;
  const body = tag.slice(PREFIX.length);
  const time = body.slice(0, TIME_WIDTH);
  const seq = body.slice(TIME_WIDTH, TIME_WIDTH + SEQ_WIDTH);
  const rand = body.slice(TIME_WIDTH + SEQ_WIDTH);
  return `${PREFIX}-${time}-${seq}-${rand}`;
}
