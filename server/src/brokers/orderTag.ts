// The order tag every live adapter sends: the operator's SEBI algo tag (ALGO_TAG) followed by the engine's client
// order id, within the broker's tag length. The id is what finds a lost order again (a placement whose answer never
// came is looked up by its tag), so it is never cut: the algo tag is shortened to the room left. Each broker's
// README and the main README say how that broker's limit shapes the tag.
import { fromAlphanumericId, toAlphanumericId } from '@optionpilot/engine';

/** Length of the client order id in a tag (its alphanumeric form). */
export const TAG_ID_LENGTH = 16;

/**
 * `<algo tag><separator><id>` in at most `maxLength` characters, letters and digits only apart from the separator
 * (`''` for brokers whose tag is alphanumeric, such as Kite's). Without room for any of the algo tag, the id alone.
 */
export function algoOrderTag(
  algoTag: string,
  clientOrderId: string,
  maxLength: number,
  separator = '',
): string {
  const id = toAlphanumericId(clientOrderId);
  const room = maxLength - id.length - separator.length;
  const prefix = algoTag.replace(/[^A-Za-z0-9]/g, '').slice(0, Math.max(0, room));
  return prefix === '' ? id : `${prefix}${separator}${id}`;
}

/** The client order id an `algoOrderTag` carries (its last 16 characters), or undefined for any other tag. */
export function clientOrderIdOfTag(tag: string | null | undefined): string | undefined {
  if (tag === null || tag === undefined || tag.length < TAG_ID_LENGTH) return undefined;
  return fromAlphanumericId(tag.slice(-TAG_ID_LENGTH));
}
