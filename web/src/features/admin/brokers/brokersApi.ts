// Calls of the Brokers page (spec §7): broker status, per-user disconnect, test user, connection tests.
import type {
  BrokerStatusDto,
  BrokerType,
  CreateTestUserResponse,
  SuccessResponse,
  TestBrokerResponse,
} from '@optionpilot/server/contract';
import { api } from '../../../api/client';

export const brokersApi = {
  status: () => api.get<BrokerStatusDto>('/api/admin/broker-status'),
  disconnect: (userId: number) => api.post<SuccessResponse>('/api/admin/force-broker-disconnect', { userId }),
  createTestUser: () => api.post<CreateTestUserResponse>('/api/admin/create-test-user', {}),
  testBroker: (userId: number) => api.post<TestBrokerResponse>('/api/admin/test-broker', { userId }),
  /** a registered broker's connection test: its API root, and the profile of a connected account */
  testConnection: (type: BrokerType) => api.post<TestBrokerResponse>(`/api/admin/brokers/${type}/test`, {}),
};
