// Reading the trader's broker connection again whenever the server says it changed (`user:broker`: a position
// check finished, or the broker ended the session), so the card and the banners update without a reload.
import { useEffect, useRef } from 'react';
import type { BrokerConnectionDto } from '@optionpilot/server/contract';
import { useLiveStore } from '../../live/stores';
import { useApiData, type ApiData } from '../dashboard/useApiData';
import { brokerApi } from './brokerApi';

/** Reloads `data` each time the server pushes a change of the broker connection. */
export function useReloadOnBrokerChange<T>(data: ApiData<T>): ApiData<T> {
  const changes = useLiveStore((s) => s.brokerChanges);
  // Changes pushed before this view mounted are in its first read already.
  const seen = useRef(changes);
  const { reload } = data;
  useEffect(() => {
    if (changes === seen.current) return;
    seen.current = changes;
    reload();
  }, [changes, reload]);
  return data;
}

export function useBrokerConnection(): BrokerConnectionDto | null | undefined {
  return useReloadOnBrokerChange(useApiData(brokerApi.connection)).data;
}
