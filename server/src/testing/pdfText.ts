// The text a reader sees in a PDF, for tests: Mozilla's PDF.js extracts it through the fonts' own Unicode maps (an
// embedded, subset font writes glyph ids, not characters), then the pieces are put back into lines by position.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Each page's lines, top to bottom; the pieces of a line are joined left to right with one space. */
export async function pdfLines(pdf: Uint8Array): Promise<string[]> {
  const doc = await getDocument({
    data: new Uint8Array(pdf),
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const out: string[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n += 1) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const rows = new Map<number, Array<{ x: number; text: string }>>();
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const [, , , , x = 0, y = 0] = item.transform as number[];
        const key = Math.round(y);
        const row = rows.get(key) ?? [];
        row.push({ x, text: item.str.trim() });
        rows.set(key, row);
      }
      for (const [, row] of [...rows.entries()].sort((a, b) => b[0] - a[0])) {
        out.push(
          row
            .sort((a, b) => a.x - b.x)
            .map((p) => p.text)
            .join(' '),
        );
      }
    }
  } finally {
    await doc.destroy();
  }
  return out;
}

/** All of a PDF's text as lines joined by newlines. */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  return (await pdfLines(pdf)).join('\n');
}
