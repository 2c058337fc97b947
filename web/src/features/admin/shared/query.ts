// Server-side lists (issue 9: nothing loads a whole table): every admin list is read one page at a time with its
// filters in the query string, and the server answers with the rows and the totals.
import { useCallback } from 'react';
import { api } from '../../../api/client';
import { useApiData, type ApiData } from '../../dashboard/useApiData';

export type QueryValue = string | number | boolean | null | undefined;

/** "?a=1&b=x" from the set values, in key order; empty, null, undefined and "all" are left out. */
export function buildQuery(params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value === undefined || value === null || value === '' || value === 'all') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** GETs `path` with `params` and reloads whenever a parameter changes. */
export function useAdminQuery<T>(path: string, params: Record<string, QueryValue> = {}): ApiData<T> {
  const url = `${path}${buildQuery(params)}`;
  const load = useCallback(() => api.get<T>(url), [url]);
  return useApiData(load);
}
