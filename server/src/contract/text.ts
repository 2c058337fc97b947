// One rule for every free-text field (names, broker keys, contact messages, notes, ids): no characters that are
// invisible or change how the text around them is shown. NUL truncates strings in C libraries and log viewers,
// zero-width characters make two names look identical, and bidi controls (the "Trojan Source" characters) make an
// admin read a different text than the one stored.
import type { z } from 'zod';

/** Ranges of code points refused everywhere: zero-width, joiners, bidi marks/embeddings/isolates, the BOM. */
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad], // soft hyphen
  [0x061c, 0x061c], // Arabic letter mark
  [0x180e, 0x180e], // Mongolian vowel separator
  [0x200b, 0x200f], // zero-width space/non-joiner/joiner, LRM, RLM
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2060, 0x2064], // word joiner, invisible operators
  [0x2066, 0x2069], // bidi isolates
  [0xfeff, 0xfeff], // byte-order mark / zero-width no-break space
];

const LINE_BREAKS = new Set([0x09, 0x0a, 0x0d]);

/** The first refused character's code point in `text`, or undefined; `multiline` allows tab, LF and CR. */
export function forbiddenCharacterIn(
  text: string,
  options: { multiline?: boolean } = {},
): number | undefined {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    if (control && !(options.multiline && LINE_BREAKS.has(code))) return code;
    if (INVISIBLE_RANGES.some(([from, to]) => code >= from && code <= to)) return code;
  }
  return undefined;
}

/** Adds the rule to a string schema: `field` names the field in the 400's message. */
export function plainText<T extends z.ZodString>(
  schema: T,
  field: string,
  options: { multiline?: boolean } = {},
): T {
  return schema.refine(
    (value) => forbiddenCharacterIn(value, options) === undefined,
    `${field} must not contain control, zero-width or text-direction characters`,
  );
}
