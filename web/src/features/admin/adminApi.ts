// Typed reads and commands of the admin API (spec §7 "Admin calls" and the contract in server/src/contract/admin.ts)
// that more than one admin page uses. Page-specific calls live next to their page.
import type {
  AdminStatsDto,
  FlattenAllResponse,
  SystemHealthDto,
  SuccessResponse,
} from '@optionpilot/server/contract';
import { api } from '../../api/client';

export const adminApi = {
  stats: () => api.get<AdminStatsDto>('/api/admin/stats'),
  systemHealth: () => api.get<SystemHealthDto>('/api/admin/system-health'),
  flattenAll: () => api.post<FlattenAllResponse>('/api/admin/trading/flatten-all', { confirm: true }),
  forceBrokerDisconnect: (userId: number) =>
    api.post<SuccessResponse>('/api/admin/force-broker-disconnect', { userId }),
};
