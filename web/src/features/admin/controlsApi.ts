// Commands on the global admin controls (spec §3 "Admin control", §7): each answers with the stored control, which
// goes straight into the live store so the page reflects it before the socket echo arrives.
import type { ControlUpdateResponse } from '@optionpilot/server/contract';
import { api } from '../../api/client';
import { useAdminLiveStore } from './live/adminLiveStore';

/** Names of spec §3, in the order the Strategy tab shows them. */
export const NUMERIC_CONTROLS = [
  'stopLoss',
  'target',
  'minMovement',
  'entryOffset',
  'consecutiveCandles',
] as const;
export const SWITCH_CONTROLS = ['tradingEnabled', 'putEnabled', 'callEnabled'] as const;
export type NumericControl = (typeof NUMERIC_CONTROLS)[number];
export type SwitchControl = (typeof SWITCH_CONTROLS)[number];

export const CONTROL_LABELS: Record<NumericControl | SwitchControl, string> = {
  stopLoss: 'Stop Loss (points)',
  target: 'Target (points)',
  minMovement: 'Minimum Movement (points)',
  entryOffset: 'Entry Offset (points)',
  consecutiveCandles: 'Consecutive Candles Required',
  tradingEnabled: 'Master Trading Switch',
  putEnabled: 'Enable PUT',
  callEnabled: 'Enable CALL',
};

/** PUT /api/admin/control/:settingName; values are strings on the wire (spec §3). */
export async function updateControl(settingName: string, value: string): Promise<void> {
  const saved = await api.put<ControlUpdateResponse>(
    `/api/admin/control/${encodeURIComponent(settingName)}`,
    {
      value,
    },
  );
  useAdminLiveStore.getState().applyControl(saved.control);
}

/** POST /api/admin/trading/pause or /resume: the master switch, acted on by the engine at once. */
export async function setTradingPaused(paused: boolean): Promise<void> {
  const saved = await api.post<ControlUpdateResponse>(`/api/admin/trading/${paused ? 'pause' : 'resume'}`);
  useAdminLiveStore.getState().applyControl(saved.control);
}
