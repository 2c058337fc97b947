// Filter state of a server-side list: the filters, a debounced search, and the page (back to 1 on any change).
import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';

/** Typing pauses this long before the search goes to the server. */
export const SEARCH_DEBOUNCE_MS = 300;

export function useListFilters<F extends Record<string, string>>(initial: F) {
  const [filters, setFilters] = useState<F>(initial);
  const [search, setSearchNow] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  return {
    filters,
    search,
    page,
    setPage,
    setSearch: (value: string) => {
      setSearchNow(value);
      setPage(1);
    },
    setFilter: <K extends keyof F>(key: K, value: F[K]) => {
      setFilters((f) => ({ ...f, [key]: value }));
      setPage(1);
    },
    /** the query parameters to send */
    params: { ...filters, search: debouncedSearch.trim(), page },
  };
}
