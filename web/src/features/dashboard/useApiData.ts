// Loads one REST resource for a component: no retries, no refetch on focus, no polling (spec §9 query defaults).
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../api/client';

export interface ApiData<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
  /** replace the data with a fresher copy the caller already has (e.g. a PUT response) */
  setData: (data: T) => void;
}

/** Calls `load` on mount and on `reload()`; answers of an unmounted component or a superseded call are ignored. */
export function useApiData<T>(load: () => Promise<T>): ApiData<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let current = true;
    setLoading(true);
    load()
      .then((value) => {
        if (!current) return;
        setData(value);
        setError(null);
      })
      .catch((err: unknown) => {
        if (current) setError(errorMessage(err, 'Failed to load'));
      })
      .finally(() => {
        if (current) setLoading(false);
      });
    return () => {
      current = false;
    };
  }, [load, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data, error, loading, reload, setData };
}
