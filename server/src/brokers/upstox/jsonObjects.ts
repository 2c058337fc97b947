/**
 * Splits a JSON array of objects, arriving in chunks, into the text of each top-level element object, without
 * holding the whole document: Upstox's `complete.json.gz` inflates to well over 100 MB, of which the NIFTY options
 * are a small part, so rows are filtered as text before any of them is parsed.
 */
export async function* jsonArrayObjects(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let current = '';
  for await (const chunk of chunks) {
    let start = depth >= 2 ? 0 : -1;
    for (let i = 0; i < chunk.length; i += 1) {
      const ch = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === 0x5c /* \ */) escaped = true;
        else if (ch === 0x22 /* " */) inString = false;
        continue;
      }
      if (ch === 0x22) inString = true;
      else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
        depth += 1;
        if (depth === 2 && ch === 0x7b) start = i;
      } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) {
        depth -= 1;
        if (depth === 1 && ch === 0x7d && start >= 0) {
          yield current + chunk.slice(start, i + 1);
          current = '';
          start = -1;
        }
      }
    }
    // An element still open at the chunk's end continues in the next chunk.
    if (depth >= 2 && start >= 0) current += chunk.slice(start);
  }
}
