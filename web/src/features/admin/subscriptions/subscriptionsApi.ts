// Calls of the Subscriptions page: plans, offers and the payment gateway status (persisted, used at checkout).
import type {
  AdminOfferDto,
  AdminPlanDto,
  NewOfferRequest,
  OfferRedemptionsResponse,
  OfferResponse,
  PatchOfferRequest,
  PaymentGatewayStatusDto,
} from '@optionpilot/server/contract';
import { api } from '../../../api/client';
import { readList } from '../live/adminLivePaths';

export const subscriptionsApi = {
  plans: async () => readList<AdminPlanDto>(await api.get<unknown>('/api/admin/plans')),
  setPlanActive: (code: string, active: boolean) =>
    api.patch<unknown>(`/api/admin/plans/${encodeURIComponent(code)}`, { active }),
  offers: async () => readList<AdminOfferDto>(await api.get<unknown>('/api/admin/offers')),
  createOffer: (body: NewOfferRequest) => api.post<OfferResponse>('/api/admin/offers', body),
  updateOffer: (id: number, body: PatchOfferRequest) =>
    api.patch<OfferResponse>(`/api/admin/offers/${id}`, body),
  setOfferActive: (id: number, active: boolean) =>
    api.patch<OfferResponse>(`/api/admin/offers/${id}`, { active }),
  redemptions: (id: number) =>
    api.get<OfferRedemptionsResponse>(`/api/admin/offers/${id}/redemptions?pageSize=100`),
  gateway: () => api.get<PaymentGatewayStatusDto>('/api/admin/payment-gateway'),
};
