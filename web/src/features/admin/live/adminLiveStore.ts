// Live data of the admin panel (the `admins` room): one Zustand store of typed slices, like the user dashboard's
// web/src/live/stores.ts. Socket events and REST polling both write through these actions via
// `useAdminLiveStore.getState()`, so the socket layer needs no React.
import { create, type StateCreator } from 'zustand';
import type { AdminControlDto, AdminTradeDto, LogDto, SignalDto } from '@optionpilot/server/contract';
import type { ConnectionStatus } from '../../../live/stores';

/** Most rows kept per live list; the tabs show the newest and the full history lives on the paged pages. */
export const MAX_LIVE_ROWS = 200;

export interface AdminConnectionSlice {
  connection: ConnectionStatus;
  setConnection: (status: ConnectionStatus) => void;
}

export interface ControlsSlice {
  /** by settingName; null until the first snapshot */
  controls: Record<string, AdminControlDto> | null;
  setControls: (controls: readonly AdminControlDto[]) => void;
  applyControl: (control: AdminControlDto) => void;
}

export interface SignalsSlice {
  /** newest first */
  signals: SignalDto[];
  setSignals: (signals: readonly SignalDto[]) => void;
  upsertSignal: (signal: SignalDto) => void;
}

export interface LogsSlice {
  /** newest first */
  logs: LogDto[];
  setLogs: (logs: readonly LogDto[]) => void;
  addLog: (log: LogDto) => void;
}

export interface ActiveTradesSlice {
  /** open trades only, newest first: a trade that closes leaves the list */
  activeTrades: AdminTradeDto[];
  setActiveTrades: (trades: readonly AdminTradeDto[]) => void;
  applyTrade: (trade: AdminTradeDto) => void;
}

export type AdminLiveState = AdminConnectionSlice &
  ControlsSlice &
  SignalsSlice &
  LogsSlice &
  ActiveTradesSlice;

type Slice<T> = StateCreator<AdminLiveState, [], [], T>;

interface Row {
  id: number;
  timestamp: string;
}

/** Replaces the row with the same id or adds it; newest first by time then id; bounded. */
export function upsertNewestFirst<T extends Row>(rows: readonly T[], row: T): T[] {
  const next = rows.filter((r) => r.id !== row.id);
  next.push(row);
  return sortNewestFirst(next);
}

/** Newest first by time, then by id so rows of the same instant keep a stable order; bounded. */
export function sortNewestFirst<T extends Row>(rows: T[]): T[] {
  return rows
    .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || b.id - a.id)
    .slice(0, MAX_LIVE_ROWS);
}

const createConnectionSlice: Slice<AdminConnectionSlice> = (set) => ({
  connection: 'idle',
  setConnection: (connection) => set({ connection }),
});

const createControlsSlice: Slice<ControlsSlice> = (set) => ({
  controls: null,
  setControls: (list) => set({ controls: Object.fromEntries(list.map((c) => [c.settingName, c])) }),
  applyControl: (control) =>
    set((s) => {
      const prev = s.controls?.[control.settingName];
      // A late poll must not undo a newer change pushed by the socket.
      if (prev && Date.parse(prev.updatedAt) > Date.parse(control.updatedAt)) return {};
      return { controls: { ...(s.controls ?? {}), [control.settingName]: control } };
    }),
});

const createSignalsSlice: Slice<SignalsSlice> = (set) => ({
  signals: [],
  setSignals: (signals) => set({ signals: sortNewestFirst([...signals]) }),
  // An executed signal is pushed again with `executed: true`: same id, replaced in place.
  upsertSignal: (signal) => set((s) => ({ signals: upsertNewestFirst(s.signals, signal) })),
});

const createLogsSlice: Slice<LogsSlice> = (set) => ({
  logs: [],
  setLogs: (logs) => set({ logs: sortNewestFirst([...logs]) }),
  addLog: (log) => set((s) => ({ logs: upsertNewestFirst(s.logs, log) })),
});

const createActiveTradesSlice: Slice<ActiveTradesSlice> = (set) => ({
  activeTrades: [],
  setActiveTrades: (trades) =>
    set({ activeTrades: sortNewestFirst(trades.filter((t) => t.status === 'open')) }),
  applyTrade: (trade) =>
    set((s) => {
      if (trade.status === 'open') return { activeTrades: upsertNewestFirst(s.activeTrades, trade) };
      return { activeTrades: s.activeTrades.filter((t) => t.id !== trade.id) };
    }),
});

export const useAdminLiveStore = create<AdminLiveState>()((...a) => ({
  ...createConnectionSlice(...a),
  ...createControlsSlice(...a),
  ...createSignalsSlice(...a),
  ...createLogsSlice(...a),
  ...createActiveTradesSlice(...a),
}));

const initialAdminLiveState = useAdminLiveStore.getState();

/** Back to the empty state (tests, leaving the admin panel). */
export function resetAdminLiveStore(): void {
  useAdminLiveStore.setState(initialAdminLiveState, true);
}

/** The string value of a control, or undefined before the first snapshot. */
export function controlValue(state: AdminLiveState, name: string): string | undefined {
  return state.controls?.[name]?.value;
}
