// Typed calls of the broker connection lifecycle and the Paper / Live switch. Shapes come from the contract.
import type {
  BrokerConnectResponse,
  BrokerConnectionDto,
  BrokerSessionResponse,
  BrokersResponse,
  TradingModeDto,
} from '@optionpilot/server/contract';
import { api } from '../../api/client';

export const brokerApi = {
  /** public: which brokers have a working integration, and the server's egress IP */
  brokers: () => api.get<BrokersResponse>('/api/brokers'),
  connection: () => api.get<BrokerConnectionDto | null>('/api/user/broker'),
  connect: () => api.post<BrokerConnectResponse>('/api/user/broker/connect', {}),
  callback: (broker: string, query: Record<string, string>) =>
    api.post<BrokerSessionResponse>('/api/user/broker/callback', { broker, query }),
  disconnect: () => api.delete<BrokerSessionResponse>('/api/user/broker/session'),
  /** the trader has whitelisted the server's IP after an "IP not allowed": orders may go again */
  resume: () => api.post<BrokerSessionResponse>('/api/user/broker/resume', {}),
  tradingMode: () => api.get<TradingModeDto>('/api/user/trading-mode'),
  setPaper: () => api.put<TradingModeDto>('/api/user/trading-mode', { mode: 'paper' }),
  setLive: () => api.put<TradingModeDto>('/api/user/trading-mode', { mode: 'live', acceptRisk: true }),
};
