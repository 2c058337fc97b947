// The trader's live connection for as long as a signed-in page is shown (the dashboard, Manage Subscription):
// opened on mount, closed on unmount, and closed too when the session ends without a page load (an expired token,
// a session revoked elsewhere).
import { useEffect } from 'react';
import { api } from '../api/client';
import { useSessionStore } from '../stores/session';
import { defaultLiveDataDeps, startLiveData, stopLiveData } from './liveData';

const liveGet = (path: string) => api.get<unknown>(path);

export function useLiveSession(): void {
  useEffect(() => {
    startLiveData(defaultLiveDataDeps(liveGet));
    const unsubscribe = useSessionStore.subscribe((s) => {
      if (!s.token) stopLiveData();
    });
    return () => {
      unsubscribe();
      stopLiveData();
    };
  }, []);
}
