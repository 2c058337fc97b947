// The admin panel's live data: `admin:*` events on the `admins` room feed the admin live store; while the socket is
// down the same lists are polled over REST, and on every (re)connect they are resynchronised once — the lifecycle
// the dashboard uses too (web/src/live/liveChannel.ts). Nothing runs at import time.
import type { AdminControlDto, AdminTradeDto, LogDto, SignalDto } from '@optionpilot/server/contract';
import { openLiveChannel } from '../../../live/liveChannel';
import type { LiveSocketLike } from '../../../live/socket';
import { useAdminLiveStore } from './adminLiveStore';
import { ADMIN_LIVE_PATHS, readList } from './adminLivePaths';

/** Polling cadence while the socket is down: the bot switch like the user's bot status (3 s), lists like trades. */
export const ADMIN_POLL_INTERVALS_MS = {
  controls: 3000,
  trades: 5000,
  signals: 5000,
  logs: 5000,
} as const;

export type AdminLiveResource = keyof typeof ADMIN_POLL_INTERVALS_MS;

export interface AdminLiveDataDeps {
  get: (path: string) => Promise<unknown>;
  getToken: () => string | null;
  createSocket: (token: string) => LiveSocketLike;
  onSessionRevoked: (reason: string) => void;
}

export interface AdminLiveDataController {
  stop: () => void;
  /** re-reads one list now (after a command whose echo may not come over the socket, e.g. on polling) */
  refresh: (resource: AdminLiveResource) => void;
}

/** Starts the admin socket plus the REST fallback; the returned handle tears both down. */
export function createAdminLiveData(deps: AdminLiveDataDeps): AdminLiveDataController {
  const store = useAdminLiveStore.getState;
  const token = deps.getToken();
  if (!token) return { stop: () => undefined, refresh: () => undefined };

  const socket = deps.createSocket(token);
  socket.on('admin:control', (control) => store().applyControl(control));
  socket.on('admin:signal', (signal) => store().upsertSignal(signal));
  socket.on('admin:log', (log) => store().addLog(log));
  socket.on('admin:trades', (trades) => {
    for (const trade of trades) store().applyTrade(trade);
  });
  return openLiveChannel({
    get: deps.get,
    socket,
    paths: ADMIN_LIVE_PATHS,
    intervalsMs: ADMIN_POLL_INTERVALS_MS,
    apply: {
      controls: (body) => store().setControls(readList<AdminControlDto>(body)),
      trades: (body) => store().setActiveTrades(readList<AdminTradeDto>(body)),
      signals: (body) => store().setSignals(readList<SignalDto>(body)),
      logs: (body) => store().setLogs(readList<LogDto>(body)),
    },
    connection: () => store().connection,
    setConnection: (connection) => store().setConnection(connection),
    onSessionRevoked: deps.onSessionRevoked,
  });
}
