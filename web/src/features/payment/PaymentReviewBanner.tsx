// The dashboard's view of the trader's UPI payment request (issue 9): "Payment under review" while pending, the
// admin's note when rejected. The review arrives over the socket (`user:payment-request`, `user:subscription` into
// the live store); while the socket is down a pending request is polled, and on every (re)connect it is re-read.
import { useCallback, useEffect } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconClockHour4, IconX } from '@tabler/icons-react';
import { useLiveStore } from '../../live/stores';
import { useUiStore } from '../../stores/ui';
import { dashboardApi } from '../dashboard/dashboardApi';
import { upiApi } from './upiApi';

/** Polling cadence of a pending request while the socket is down (the dashboard's trades cadence). */
export const UPI_POLL_MS = 5000;

export function PaymentReviewBanner() {
  const request = useLiveStore((s) => s.paymentRequest);
  const connection = useLiveStore((s) => s.connection);
  const status = request?.status;

  const load = useCallback(() => {
    upiApi
      .info()
      .then((info) => {
        const latest = info.requests[0];
        if (latest) useLiveStore.getState().applyPaymentRequest(latest);
      })
      .catch(() => {
        // No banner without an answer; the next connect or poll tries again.
      });
  }, []);

  // First snapshot, and a resync whenever the socket (re)connects: a review pushed while away is not replayed.
  useEffect(() => {
    if (connection === 'connecting' || connection === 'connected') load();
  }, [connection, load]);

  useEffect(() => {
    if (status !== 'pending' || connection === 'connected') return;
    const timer = setInterval(load, UPI_POLL_MS);
    return () => clearInterval(timer);
  }, [status, connection, load]);

  // Approved: the subscription changed. The server also pushes it, but a polled approval has no push to rely on.
  const requestId = request?.id;
  useEffect(() => {
    if (status !== 'approved') return;
    let current = true;
    dashboardApi
      .subscription()
      .then((s) => current && useLiveStore.getState().setSubscription(s))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [status, requestId]);

  if (!request) return null;
  if (request.status === 'pending') {
    return (
      <Alert color="blue" icon={<IconClockHour4 size={18} />} title="Payment under review" role="status">
        We received your UPI payment of UTR {request.utrNumber}. Your subscription turns active as soon as an
        admin approves it.
      </Alert>
    );
  }
  if (request.status === 'rejected') {
    return (
      <Alert color="red" icon={<IconX size={18} />} title="Payment rejected" role="status">
        <Group justify="space-between" align="flex-end">
          <Text size="sm">{request.adminNotes || 'Your UPI payment could not be confirmed.'}</Text>
          <Button
            size="xs"
            variant="white"
            color="red"
            onClick={() => useUiStore.getState().openPaymentDialog()}
          >
            Pay again
          </Button>
        </Group>
      </Alert>
    );
  }
  return null;
}
