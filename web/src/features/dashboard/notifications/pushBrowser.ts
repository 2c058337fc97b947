// This browser's side of push: whether it can receive pushes, its service worker (web/public/sw.js, scope /) and
// its push subscription. Only the Push API calls live here; PushSwitch decides what to do with them.

/** Why push cannot work here, or null when it can. */
export function pushUnavailableReason(): string | null {
  if (!window.isSecureContext) {
    return 'Push notifications need the app to be opened over HTTPS (or on localhost).';
  }
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return 'This browser cannot receive push notifications.';
  }
  return null;
}

/** The subscription this browser already has for the app (null when none, or no worker is registered yet). */
export async function currentPushSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** base64url (the server's VAPID key) → the bytes `applicationServerKey` takes. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

/**
 * Registers the service worker, waits for it to be active and subscribes with the server's key. A subscription
 * made with another key (the server's key file was replaced) is dropped first: the browser refuses a second one.
 */
export async function subscribeToPush(vapidPublicKey: string): Promise<PushSubscription> {
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const key = base64UrlToBytes(vapidPublicKey);
  const existing = await registration.pushManager.getSubscription();
  if (existing && sameKey(existing, key)) return existing;
  if (existing) await existing.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}
