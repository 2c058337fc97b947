// The demo dashboard's only calls: two public GETs (GET /api/demo, /api/demo/candles). Nothing here writes.
import type { CandleDto, DemoResponse } from '@optionpilot/server/contract';
import { api } from '../../api/client';

/** Candles the chart starts with: five hours of one-minute candles. */
export const DEMO_CHART_CANDLES = 300;

export const demoApi = {
  snapshot: (signal?: AbortSignal) => api.get<DemoResponse>('/api/demo', { signal }),
  candles: (signal?: AbortSignal) =>
    api.get<CandleDto[]>(`/api/demo/candles?limit=${DEMO_CHART_CANDLES}`, { signal }),
};
