// The push calls of the web app: the server's VAPID key, and registering or forgetting this browser's
// subscription. The endpoint goes in the body (also for DELETE) so it never appears in a URL or an access log.
import type {
  PushSubscriptionRequest,
  PushUnsubscribeRequest,
  VapidPublicKeyDto,
} from '@optionpilot/server/contract';
import { api, apiRequest } from '../../../api/client';

export const pushApi = {
  vapidPublicKey: () => api.get<VapidPublicKeyDto>('/api/push/vapid-public-key'),
  save: (subscription: PushSubscriptionRequest) =>
    api.post<void>('/api/user/push/subscriptions', subscription),
  remove: (body: PushUnsubscribeRequest) =>
    apiRequest<void>('/api/user/push/subscriptions', { method: 'DELETE', body }),
};
