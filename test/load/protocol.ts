// Messages between bench-live.ts and its child processes (client workers and the bare baseline server), over the
// Node IPC channel. Every child also exits when the channel closes, so a killed bench never leaves sockets behind.
import type { HistogramWire } from './stats';

/** parent → client worker */
export type WorkerCommand =
  | {
      type: 'connect';
      /** one server URL per socket, already spread over the nodes by the parent (all the same for one server) */
      urls: string[];
      /** one token per socket, already spread over the users by the parent */
      tokens: string[];
      /** sockets opening at the same time (each one is a handshake plus a session check on the server) */
      concurrency: number;
      timeoutMs: number;
    }
  | { type: 'record' }
  | { type: 'stop' };

export interface ConnectReport {
  type: 'connected';
  ok: number;
  failed: number;
  /** the first few distinct connect errors, to print */
  errors: string[];
  ms: number;
}

export interface WorkerResult {
  type: 'result';
  /** tick-to-client latency by the server URL the sockets are connected to */
  latency: Record<string, HistogramWire>;
  /** events of each name received while recording, across all sockets of the worker */
  events: Record<string, number>;
  /** sockets that disconnected while recording */
  disconnects: number;
  /** ms the worker recorded for */
  recordedMs: number;
  /** user+system CPU ms the worker spent while recording */
  cpuMs: number;
  /** distinct tick timestamps seen by the worker's first socket, to derive the tick rate */
  distinctTicks: number;
}

/** client worker → parent */
export type WorkerReport = ConnectReport | WorkerResult | { type: 'error'; message: string };

/** bare server → parent */
export type BareServerReport = { type: 'listening'; port: number };
