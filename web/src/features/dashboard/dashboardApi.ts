// Typed calls the dashboard makes besides the live data (which lives in web/src/live). Shapes come from the contract.
import type {
  BotStatusDetailDto,
  BrokerConnectionDto,
  BrokerSaveResponse,
  CandleDto,
  PublicConfigDto,
  SubscriptionDto,
  TradingSettingsDto,
  TradingSettingsRequest,
  UserSettingsDto,
  UserSettingsRequest,
} from '@optionpilot/server/contract';
import { api } from '../../api/client';

export interface BrokerCredentials {
  brokerType: string;
  apiKey: string;
  apiSecret: string;
}

export const dashboardApi = {
  config: () => api.get<PublicConfigDto>('/api/config'),
  subscription: () => api.get<SubscriptionDto>('/api/user/subscription'),
  tradingSettings: () => api.get<TradingSettingsDto>('/api/user/trading-settings'),
  saveTradingSettings: (body: TradingSettingsRequest) =>
    api.put<TradingSettingsDto>('/api/user/trading-settings', body),
  setBot: (enabled: boolean) => api.put<BotStatusDetailDto>('/api/user/bot', { enabled }),
  settings: () => api.get<UserSettingsDto>('/api/user/settings'),
  saveSettings: (body: UserSettingsRequest) => api.put<UserSettingsDto>('/api/user/settings', body),
  broker: () => api.get<BrokerConnectionDto | null>('/api/user/broker'),
  saveBroker: (body: BrokerCredentials) => api.post<BrokerSaveResponse>('/api/user/broker', body),
  candles: (interval: CandleDto['interval'], limit: number) =>
    api.get<CandleDto[]>(`/api/market/candles?interval=${interval}&limit=${limit}`),
};
