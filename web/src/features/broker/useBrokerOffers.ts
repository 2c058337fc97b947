// The public broker list (GET /api/brokers), for the Broker Connection select and the landing page's claims.
import type { BrokersResponse } from '@optionpilot/server/contract';
import { useApiData, type ApiData } from '../dashboard/useApiData';
import { brokerApi } from './brokerApi';

export function useBrokerOffers(): ApiData<BrokersResponse> {
  return useApiData(brokerApi.brokers);
}
