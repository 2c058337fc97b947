// Calls of the Subscriptions page: plans, offers and the payment gateway status (persisted, used at checkout).
import type {
  AdminOfferDto,
  AdminPlanDto,
  OfferResponse,
  PaymentGatewayStatusDto,
} from '@optionpilot/server/contract';
import { api } from '../../../api/client';
import { readList } from '../live/adminLivePaths';

export interface NewOffer {
  name: string;
  discountPercent: number;
  validTill: string | null;
  maxUsers: number | null;
}

export const subscriptionsApi = {
  plans: async () => readList<AdminPlanDto>(await api.get<unknown>('/api/admin/plans')),
  setPlanActive: (code: string, active: boolean) =>
    api.patch<unknown>(`/api/admin/plans/${encodeURIComponent(code)}`, { active }),
  offers: async () => readList<AdminOfferDto>(await api.get<unknown>('/api/admin/offers')),
  createOffer: (body: NewOffer) => api.post<OfferResponse>('/api/admin/offers', body),
  setOfferActive: (id: number, active: boolean) =>
    api.patch<OfferResponse>(`/api/admin/offers/${id}`, { active }),
  gateway: () => api.get<PaymentGatewayStatusDto>('/api/admin/payment-gateway'),
};
