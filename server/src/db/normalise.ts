// SQLite has no boolean type (0/1 come back) and PostgreSQL's COUNT/SUM types differ from SQLite's; these helpers
// make rows from both dialects identical, so callers and tests never branch on the dialect.

type Raw = Record<string, unknown>;

/** 0/1, '0'/'1', 't'/'f' or a boolean → boolean; null stays null. */
export function toBool(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'string') return value === '1' || value === 't' || value === 'true';
  return false;
}

/** A number from a driver value (COUNT on pg is int8, SUM can be numeric); null/undefined → 0. */
export function toNumber(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : Number(value);
}

/** Returns a row mapper that turns the listed columns into booleans; the row is otherwise passed through. */
export function rowMapper<Row>(booleanColumns: readonly (keyof Row & string)[] = []): (raw: unknown) => Row {
  return (raw) => {
    const row: Raw = { ...(raw as Raw) };
    for (const column of booleanColumns) {
      if (column in row && row[column] !== null) row[column] = toBool(row[column]);
    }
    return row as Row;
  };
}

/** Reads the single value of `SELECT COUNT(*) AS n`-style results as a number. */
export function countOf(result: unknown, alias = 'n'): number {
  const row = Array.isArray(result) ? (result[0] as Raw | undefined) : (result as Raw | undefined);
  return toNumber(row?.[alias]);
}
