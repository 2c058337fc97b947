// The lifecycle every live page shares (the trader's dashboard and the admin panel): a Socket.IO connection whose
// events feed a store, a REST snapshot of every resource on each (re)connect because events sent while we were away
// are lost, and polling of the same resources while the socket is down. The caller subscribes its own events; the
// channel owns connect, disconnect, resync, polling and session revocation.
import type { LiveSocketLike } from './socket';
import type { ConnectionStatus } from './stores';

export interface LiveChannelOptions<R extends string> {
  /** GET a JSON body (the app's API client) */
  get: (path: string) => Promise<unknown>;
  socket: LiveSocketLike;
  paths: Readonly<Record<R, string>>;
  /** polling cadence of each resource while the socket is down */
  intervalsMs: Readonly<Record<R, number>>;
  /** puts a REST answer into the store */
  apply: Readonly<Record<R, (body: unknown) => void>>;
  connection: () => ConnectionStatus;
  setConnection: (connection: ConnectionStatus) => void;
  onSessionRevoked: (reason: string) => void;
}

export interface LiveChannel<R extends string> {
  stop: () => void;
  /** re-reads one resource now, even if a poll of it is pending (after a command whose echo may not come) */
  refresh: (resource: R) => void;
}

/** Subscribes the lifecycle events, takes a first snapshot, starts polling and connects the socket. */
export function openLiveChannel<R extends string>(options: LiveChannelOptions<R>): LiveChannel<R> {
  const { socket } = options;
  const resources = Object.keys(options.paths) as R[];
  const timers: ReturnType<typeof setInterval>[] = [];
  // resource → epoch of its pending request: a slow server must not pile up a request every interval
  const inFlight = new Map<R, number>();
  // Bumped on every connect, disconnect and stop: an answer that started in an older epoch is dropped, so a slow
  // poll cannot overwrite fresher socket data (the resync of the new epoch supplies the truth).
  let epoch = 0;
  let stopped = false;

  function fetchResource(resource: R): void {
    if (stopped || inFlight.get(resource) === epoch) return;
    const started = epoch;
    inFlight.set(resource, started);
    options
      .get(options.paths[resource])
      .then((body) => {
        if (!stopped && started === epoch) options.apply[resource](body);
      })
      .catch(() => {
        // Not toasted (a failing poll every second would drown the page); a 401 is handled by the API client and
        // the next poll or resync retries the rest.
      })
      .finally(() => {
        if (inFlight.get(resource) === started) inFlight.delete(resource);
      });
  }

  const resyncOnce = () => resources.forEach(fetchResource);

  function startPolling(): void {
    if (timers.length > 0) return;
    for (const resource of resources) {
      timers.push(setInterval(() => fetchResource(resource), options.intervalsMs[resource]));
    }
  }

  function stopPolling(): void {
    for (const t of timers.splice(0)) clearInterval(t);
  }

  function stop(): void {
    if (stopped) return;
    stopped = true;
    epoch += 1;
    stopPolling();
    socket.disconnect();
    options.setConnection('idle');
  }

  socket.on('connect', () => {
    if (stopped) return;
    epoch += 1;
    stopPolling();
    options.setConnection('connected');
    resyncOnce();
  });
  const onDown = () => {
    if (stopped || options.connection() === 'disconnected') return;
    epoch += 1;
    options.setConnection('disconnected');
    startPolling();
  };
  socket.on('disconnect', onDown);
  socket.on('connect_error', onDown);
  socket.on('session:revoked', ({ reason }) => {
    stop();
    options.onSessionRevoked(reason);
  });

  // Until the socket is up the page is fed by REST: a first snapshot now, then the polling cadence.
  options.setConnection('connecting');
  resyncOnce();
  startPolling();
  socket.connect();

  return {
    stop,
    refresh: (resource) => {
      inFlight.delete(resource);
      fetchResource(resource);
    },
  };
}
