import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../test/render';
import { mockApi } from '../../../test/http';
import { PUSH_DENIED_MESSAGE, PushSwitch } from './PushSwitch';
import { base64UrlToBytes } from './pushBrowser';

// 65 bytes, as a real VAPID public key.
const VAPID_KEY = `BA${'x'.repeat(85)}`;
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/browser-1';
const KEYS = { p256dh: 'BPub', auth: 'secret' };

interface BrowserOptions {
  permission?: NotificationPermission;
  /** what requestPermission answers (default granted) */
  answer?: NotificationPermission;
  /** the subscription this browser already holds */
  subscribed?: boolean;
  subscribeError?: Error;
}

/** Stands in for the browser's Notification, service worker and Push APIs, recording what the switch asked. */
function fakeBrowser(options: BrowserOptions = {}) {
  const calls = {
    requestPermission: 0,
    register: [] as Array<[string, RegistrationOptions | undefined]>,
    subscribe: [] as PushSubscriptionOptionsInit[],
    unsubscribe: 0,
  };
  let current: PushSubscription | null = null;
  const makeSubscription = (key: Uint8Array | null): PushSubscription =>
    ({
      endpoint: ENDPOINT,
      options: { applicationServerKey: key?.buffer ?? null, userVisibleOnly: true },
      toJSON: () => ({ endpoint: ENDPOINT, expirationTime: null, keys: KEYS }),
      unsubscribe: async () => {
        calls.unsubscribe += 1;
        current = null;
        return true;
      },
    }) as unknown as PushSubscription;
  if (options.subscribed) current = makeSubscription(base64UrlToBytes(VAPID_KEY));
  const pushManager = {
    getSubscription: async () => current,
    subscribe: async (init: PushSubscriptionOptionsInit) => {
      calls.subscribe.push(init);
      if (options.subscribeError) throw options.subscribeError;
      current = makeSubscription(init.applicationServerKey as Uint8Array);
      return current;
    },
  };
  const registration = { pushManager } as unknown as ServiceWorkerRegistration;
  let registered = options.subscribed ?? false;
  Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      register: async (url: string, opts?: RegistrationOptions) => {
        calls.register.push([url, opts]);
        registered = true;
        return registration;
      },
      ready: Promise.resolve(registration),
      getRegistration: async () => (registered ? registration : undefined),
    },
  });
  vi.stubGlobal('PushManager', class {});
  const notification = {
    permission: options.permission ?? 'default',
    requestPermission: async () => {
      calls.requestPermission += 1;
      notification.permission = options.answer ?? 'granted';
      return notification.permission;
    },
  };
  vi.stubGlobal('Notification', notification);
  return calls;
}

function pushSwitch(): HTMLInputElement {
  return screen.getByRole('switch', { name: /Push notifications/ }) as HTMLInputElement;
}

async function enabledSwitch(): Promise<HTMLInputElement> {
  await waitFor(() => expect(pushSwitch().disabled).toBe(false));
  return pushSwitch();
}

describe('PushSwitch', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serviceWorker');
    Reflect.deleteProperty(window, 'isSecureContext');
  });

  it('switched on: asks permission, registers /sw.js, subscribes with the server key and sends the subscription', async () => {
    const calls = fakeBrowser();
    const api = mockApi({
      'GET /api/push/vapid-public-key': { body: { publicKey: VAPID_KEY } },
      'POST /api/user/push/subscriptions': { status: 204, body: undefined },
    });
    const onChange = vi.fn();
    renderWithProviders(<PushSwitch onChange={onChange} />);
    fireEvent.click(await enabledSwitch());

    await waitFor(() => expect(pushSwitch().checked).toBe(true));
    expect(calls.requestPermission).toBe(1);
    expect(calls.register).toEqual([['/sw.js', { scope: '/' }]]);
    expect(calls.subscribe).toHaveLength(1);
    expect(calls.subscribe[0]?.userVisibleOnly).toBe(true);
    expect(Array.from(calls.subscribe[0]?.applicationServerKey as Uint8Array)).toEqual(
      Array.from(base64UrlToBytes(VAPID_KEY)),
    );
    expect(api.called('POST', '/api/user/push/subscriptions')[0]?.body).toEqual({
      endpoint: ENDPOINT,
      expirationTime: null,
      keys: KEYS,
    });
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('says how to unblock notifications when the browser permission is denied, and subscribes nothing', async () => {
    const calls = fakeBrowser({ answer: 'denied' });
    const api = mockApi({ 'GET /api/push/vapid-public-key': { body: { publicKey: VAPID_KEY } } });
    renderWithProviders(<PushSwitch />);
    fireEvent.click(await enabledSwitch());

    expect(await screen.findByText(PUSH_DENIED_MESSAGE)).toBeTruthy();
    expect(pushSwitch().checked).toBe(false);
    expect(pushSwitch().disabled).toBe(true);
    expect(calls.subscribe).toEqual([]);
    expect(api.requests).toEqual([]);
  });

  it('starts blocked when the site was already denied', async () => {
    fakeBrowser({ permission: 'denied' });
    mockApi({});
    renderWithProviders(<PushSwitch />);
    expect(await screen.findByText(PUSH_DENIED_MESSAGE)).toBeTruthy();
    expect(pushSwitch().disabled).toBe(true);
  });

  it("shows the browser's reason when subscribing to its push service fails, and saves nothing", async () => {
    fakeBrowser({
      subscribeError: new DOMException('Registration failed - push service error', 'AbortError'),
    });
    const api = mockApi({ 'GET /api/push/vapid-public-key': { body: { publicKey: VAPID_KEY } } });
    renderWithProviders(<PushSwitch />);
    fireEvent.click(await enabledSwitch());

    expect((await screen.findByRole('alert')).textContent).toBe(
      'This browser could not subscribe to its push service: Registration failed - push service error',
    );
    expect(pushSwitch().checked).toBe(false);
    expect(api.called('POST', '/api/user/push/subscriptions')).toEqual([]);
  });

  it('drops the new subscription when the server refuses it, showing the server message', async () => {
    const calls = fakeBrowser();
    mockApi({
      'GET /api/push/vapid-public-key': { body: { publicKey: VAPID_KEY } },
      'POST /api/user/push/subscriptions': {
        status: 400,
        body: { error: 'validation_failed', message: 'endpoint: must be the https:// URL of a push service' },
      },
    });
    renderWithProviders(<PushSwitch />);
    fireEvent.click(await enabledSwitch());

    expect((await screen.findByRole('alert')).textContent).toBe(
      'endpoint: must be the https:// URL of a push service',
    );
    expect(calls.unsubscribe).toBe(1);
    expect(pushSwitch().checked).toBe(false);
  });

  it('shows on for a browser already subscribed; switched off it unsubscribes and asks the server to forget it', async () => {
    const calls = fakeBrowser({ permission: 'granted', subscribed: true });
    const api = mockApi({ 'DELETE /api/user/push/subscriptions': { status: 204, body: undefined } });
    const onChange = vi.fn();
    renderWithProviders(<PushSwitch onChange={onChange} />);
    await waitFor(() => expect(pushSwitch().checked).toBe(true));

    fireEvent.click(await enabledSwitch());
    await waitFor(() => expect(pushSwitch().checked).toBe(false));
    expect(calls.unsubscribe).toBe(1);
    expect(api.called('DELETE', '/api/user/push/subscriptions')[0]?.body).toEqual({ endpoint: ENDPOINT });
    expect(onChange).toHaveBeenCalledWith(false);
  });

  it('says when the browser has no push at all, with the switch disabled', async () => {
    Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
    renderWithProviders(<PushSwitch />);
    expect(screen.getByText('This browser cannot receive push notifications.')).toBeTruthy();
    expect(pushSwitch().disabled).toBe(true);
  });

  it('says push needs HTTPS on a plain-http page', async () => {
    Object.defineProperty(window, 'isSecureContext', { configurable: true, value: false });
    renderWithProviders(<PushSwitch />);
    expect(screen.getByText(/need the app to be opened over HTTPS \(or on localhost\)/)).toBeTruthy();
    expect(pushSwitch().disabled).toBe(true);
  });
});
