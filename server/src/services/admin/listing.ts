// The pieces every admin list shares: the time window of a `period` or `from`/`to` (IST calendar days, spec §9),
// one page of a filtered query with the total count, and the search over a user's e-mail and name.
import type { Knex } from 'knex';
import { addDays, istDate, istMidnight } from '@optionpilot/engine';
import type { ListQuery, PageDto } from '../../contract';
import { countOf } from '../../db';

/** spec §9: the week filter is the last 10080 minutes, not a calendar week. */
export const WEEK_MS = 10_080 * 60_000;

export interface TimeWindow {
  /** inclusive, epoch ms */
  from: number | null;
  /** exclusive, epoch ms */
  to: number | null;
}

/** Midnight IST starting the calendar month of `now`. */
export function istMonthStart(now: number): number {
  return istMidnight(`${istDate(now).slice(0, 7)}-01`);
}

/** Midnight IST starting the calendar quarter of `now` (Jan, Apr, Jul, Oct). */
export function istQuarterStart(now: number): number {
  const [year, month] = istDate(now).split('-').map(Number) as [number, number];
  const first = Math.floor((month - 1) / 3) * 3 + 1;
  return istMidnight(`${year}-${String(first).padStart(2, '0')}-01`);
}

/** The window a list query asks for: `from`/`to` (IST days, inclusive) narrow the period further. */
export function windowOf(query: Pick<ListQuery, 'period' | 'from' | 'to'>, now: number): TimeWindow {
  let from: number | null = null;
  let to: number | null = null;
  switch (query.period) {
    case 'today':
      from = istMidnight(istDate(now));
      break;
    case 'week':
      from = now - WEEK_MS;
      break;
    case 'month':
      from = istMonthStart(now);
      break;
    case 'quarter':
      from = istQuarterStart(now);
      break;
    case 'all':
      break;
  }
  if (query.from !== undefined) from = Math.max(from ?? -Infinity, istMidnight(query.from));
  if (query.to !== undefined) to = istMidnight(addDays(query.to, 1));
  return { from, to };
}

/** Adds the window to `builder` on `column`. */
export function inWindow<T extends Knex.QueryBuilder>(builder: T, column: string, window: TimeWindow): T {
  if (window.from !== null) void builder.where(column, '>=', window.from);
  if (window.to !== null) void builder.where(column, '<', window.to);
  return builder;
}

/** `%term%` for LIKE with the wildcards of the term escaped. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Matches `term` against a user's e-mail, first name, last name or full name (case-insensitive). */
export function whereUserMatches(
  builder: Knex.QueryBuilder,
  term: string | undefined,
  alias = 'users',
  extraColumns: readonly string[] = [],
): void {
  if (!term) return;
  const pattern = likePattern(term);
  void builder.where((w) => {
    for (const column of [`${alias}.email`, `${alias}.first_name`, `${alias}.last_name`, ...extraColumns])
      void w.orWhereRaw(`lower(${column}) like ? escape '\\'`, [pattern]);
    void w.orWhereRaw(`lower(${alias}.first_name || ' ' || ${alias}.last_name) like ? escape '\\'`, [
      pattern,
    ]);
  });
}

/** One page of `builder` (already filtered, not yet ordered or limited) and the count of all its rows. */
export async function pageOf<Row>(props: {
  builder: Knex.QueryBuilder;
  page: number;
  pageSize: number;
  orderBy: Array<{ column: string; order: 'asc' | 'desc' }>;
  map: (raw: Record<string, unknown>) => Row;
}): Promise<PageDto<Row>> {
  const { builder, page, pageSize } = props;
  const counted = (await builder.clone().clearSelect().clearOrder().count({ n: '*' })) as unknown;
  const rows = (await builder
    .clone()
    .orderBy(props.orderBy)
    .limit(pageSize)
    .offset((page - 1) * pageSize)) as Array<Record<string, unknown>>;
  return { items: rows.map(props.map), total: countOf(counted), page, pageSize };
}
