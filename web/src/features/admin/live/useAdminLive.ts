// Mounts the admin live data for the admin overview: started on mount, stopped on unmount or when the session ends.
// The handle lives at module level (like web/src/live/liveData.ts) so commands can ask for a refresh without React.
import { useEffect } from 'react';
import { api } from '../../../api/client';
import { createLiveSocket, endRevokedSession, readStoredToken } from '../../../live/socket';
import { useSessionStore } from '../../../stores/session';
import { createAdminLiveData, type AdminLiveDataController, type AdminLiveResource } from './adminLiveData';

let current: AdminLiveDataController | null = null;

/** Re-reads one live list now; a no-op when the admin live data is not running. */
export function refreshAdminLive(resource: AdminLiveResource): void {
  current?.refresh(resource);
}

/** Starts the admin socket and its REST fallback while the calling component is mounted. */
export function useAdminLive(): void {
  useEffect(() => {
    if (!current) {
      current = createAdminLiveData({
        get: (path) => api.get<unknown>(path),
        getToken: readStoredToken,
        createSocket: createLiveSocket,
        onSessionRevoked: endRevokedSession,
      });
    }
    const unsubscribe = useSessionStore.subscribe((s) => {
      if (!s.token) stop();
    });
    return () => {
      unsubscribe();
      stop();
    };
  }, []);
}

function stop(): void {
  current?.stop();
  current = null;
}
