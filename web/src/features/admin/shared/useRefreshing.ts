// An overview figure that refreshes itself: loaded on mount and again every `everyMs` while mounted. The admin
// figures (stats, system health) are computed on the server and have no socket event of their own.
import { useEffect } from 'react';
import { useApiData, type ApiData } from '../../dashboard/useApiData';

export function useRefreshing<T>(load: () => Promise<T>, everyMs: number): ApiData<T> {
  const data = useApiData(load);
  const { reload } = data;
  useEffect(() => {
    const timer = setInterval(reload, everyMs);
    return () => clearInterval(timer);
  }, [reload, everyMs]);
  return data;
}
