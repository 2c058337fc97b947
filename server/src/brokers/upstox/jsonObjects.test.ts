import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonArrayObjects } from './jsonObjects';

async function collect(text: string, size: number): Promise<unknown[]> {
  async function* pieces(): AsyncGenerator<string> {
    for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
  }
  const out: unknown[] = [];
  for await (const element of jsonArrayObjects(pieces())) out.push(JSON.parse(element));
  return out;
}

describe('jsonArrayObjects', () => {
  it('yields each element object whole, however the text is chunked', async () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer()),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.dictionary(fc.string(), value)),
        fc.integer({ min: 1, max: 40 }),
        async (rows, size) => {
          expect(await collect(JSON.stringify(rows, null, 1), size)).toEqual(rows);
        },
      ),
    );
  });

  it('is not fooled by braces and quotes inside strings', async () => {
    const rows = [{ a: '}{ "[', b: 'x\\"}' }, { c: '\\' }];
    expect(await collect(JSON.stringify(rows), 3)).toEqual(rows);
  });
});
