// The "Push notifications" switch: push is a property of this browser, so the switch shows whether this browser
// holds a subscription. Switching on asks the browser's permission, registers the service worker (/sw.js),
// subscribes with the server's VAPID key and sends the subscription to the server; switching off unsubscribes and
// tells the server to forget it. Every way it can fail is said in words under the switch.
import { useEffect, useState } from 'react';
import { Alert, Stack, Switch, Text } from '@mantine/core';
import { errorMessage } from '../../../api/client';
import { pushApi } from './pushApi';
import { currentPushSubscription, pushUnavailableReason, subscribeToPush } from './pushBrowser';

export const PUSH_DENIED_MESSAGE =
  "Notifications are blocked for this site. Allow them in your browser's site settings, then switch this on.";

export interface PushSwitchProps {
  /** told after the browser's subscription changed (on: registered with the server; off: removed) */
  onChange?: (on: boolean) => void;
}

export function PushSwitch({ onChange }: PushSwitchProps) {
  const [unavailable] = useState(pushUnavailableReason);
  const [on, setOn] = useState(false);
  const [checking, setChecking] = useState(unavailable === null);
  const [busy, setBusy] = useState(false);
  const [denied, setDenied] = useState(() => unavailable === null && Notification.permission === 'denied');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (unavailable !== null) return;
    let live = true;
    currentPushSubscription().then(
      (subscription) => {
        if (!live) return;
        setOn(subscription !== null);
        setChecking(false);
      },
      () => {
        if (live) setChecking(false);
      },
    );
    return () => {
      live = false;
    };
  }, [unavailable]);

  async function turnOn(): Promise<void> {
    // First, while the click still counts as the user's gesture: some browsers ask only then.
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      setDenied(permission === 'denied');
      setError(
        permission === 'denied'
          ? null
          : 'Allow notifications when your browser asks, to receive them in this browser.',
      );
      return;
    }
    let publicKey: string;
    try {
      ({ publicKey } = await pushApi.vapidPublicKey());
    } catch (err) {
      setError(errorMessage(err, 'Could not reach the server.'));
      return;
    }
    let subscription: PushSubscription;
    try {
      subscription = await subscribeToPush(publicKey);
    } catch (err) {
      setError(
        `This browser could not subscribe to its push service: ${errorMessage(err, 'no reason given')}`,
      );
      return;
    }
    const json = subscription.toJSON();
    try {
      await pushApi.save({
        endpoint: json.endpoint ?? subscription.endpoint,
        expirationTime: json.expirationTime ?? null,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
      });
    } catch (err) {
      // A subscription the server does not know would never receive anything: drop it.
      await subscription.unsubscribe().catch(() => false);
      setError(errorMessage(err, 'Could not save the subscription.'));
      return;
    }
    setOn(true);
    onChange?.(true);
  }

  async function turnOff(): Promise<void> {
    const subscription = await currentPushSubscription();
    if (subscription) {
      const endpoint = subscription.endpoint;
      await subscription.unsubscribe();
      try {
        await pushApi.remove({ endpoint });
      } catch (err) {
        // The browser no longer accepts pushes, so the push service answers "gone" and the server forgets it then.
        setError(
          `Push is off in this browser; the server could not be told yet (${errorMessage(err, 'error')}).`,
        );
      }
    }
    setOn(false);
    onChange?.(false);
  }

  async function toggle(wanted: boolean): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await (wanted ? turnOn() : turnOff());
    } catch (err) {
      setError(errorMessage(err, 'Something went wrong.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap={4}>
      <Switch
        label="Push notifications"
        description="In this browser, even when the app is closed"
        checked={on}
        disabled={unavailable !== null || checking || busy || (denied && !on)}
        onChange={(e) => void toggle(e.currentTarget.checked)}
      />
      {unavailable !== null && (
        <Text size="sm" c="dimmed">
          {unavailable}
        </Text>
      )}
      {denied && !on && (
        <Alert color="yellow" title="Notifications blocked">
          {PUSH_DENIED_MESSAGE}
        </Alert>
      )}
      {error !== null && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
