// Calls of the Strategies page: the persisted strategy list the trading runtime runs (the active ones).
import type { AdminStrategyDto, StrategyParameters, StrategyResponse } from '@optionpilot/server/contract';
import { api } from '../../../api/client';
import { readList } from '../live/adminLivePaths';

export interface StrategyBody {
  name: string;
  description: string;
  sides: AdminStrategyDto['sides'];
  active: boolean;
  parameters: StrategyParameters;
}

export const strategiesApi = {
  list: async () => readList<AdminStrategyDto>(await api.get<unknown>('/api/admin/strategies')),
  create: (body: StrategyBody) => api.post<StrategyResponse>('/api/admin/strategies', body),
  update: (id: number, body: Partial<StrategyBody>) =>
    api.patch<StrategyResponse>(`/api/admin/strategies/${id}`, body),
};
