import type { SchedulerLike, Subscription } from 'rxjs';
import type WebSocket from 'ws';

/**
 * Ends a socket that has been silent — no frame and no ping — for `silenceMs`, so a half-open connection (the
 * peer gone without a FIN) is noticed and replaced by the caller's reconnect instead of reading as open forever.
 * Upstox pings idle sockets, so silence means the connection is dead.
 */
export function watchSilence(ws: WebSocket, silenceMs: number, scheduler: SchedulerLike): void {
  let timer: Subscription | undefined;
  const arm = (): void => {
    timer?.unsubscribe();
    timer = scheduler.schedule(() => ws.terminate(), silenceMs);
  };
  ws.on('open', arm);
  ws.on('message', arm);
  ws.on('ping', arm);
  ws.on('close', () => timer?.unsubscribe());
}
