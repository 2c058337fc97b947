// Browser push (issue 20): the server's VAPID public key and a browser's subscription, as the web app sends what
// `PushSubscription.toJSON()` gives.

/** `GET /api/push/vapid-public-key`: the `applicationServerKey` browsers subscribe with (base64url, 65 bytes). */
export interface VapidPublicKeyDto {
  publicKey: string;
}

/** `POST /api/user/push/subscriptions`: a browser's `PushSubscription.toJSON()`. */
export interface PushSubscriptionRequest {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/** `DELETE /api/user/push/subscriptions`: which browser to forget. */
export interface PushUnsubscribeRequest {
  endpoint: string;
}
