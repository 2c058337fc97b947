// One line of a broker's CSV instrument master split into cells, honouring double quotes (masters quote names that
// hold commas). Shared by the CSV masters (Kite's NFO dump, Fyers' NSE_FO.csv, Groww's instrument.csv).
export function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}
