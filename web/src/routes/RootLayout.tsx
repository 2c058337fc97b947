import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';
import { SESSION_EXPIRED_EVENT, errorMessage, type SessionExpiredDetail } from '../api/client';
import { GlobalDialogs } from '../features/auth/GlobalDialogs';
import { showDeferredToast, toastError } from '../lib/toast';
import { useSessionStore } from '../stores/session';
import { useUiStore } from '../stores/ui';

/**
 * Top of every route: checks a stored token once per page load (GET /api/auth/me, no retries), reacts to a session
 * that expires or is revoked mid-use (toast, back to `/`), and hosts the dialogs opened through the ui store.
 */
export function RootLayout() {
  const navigate = useNavigate();

  useEffect(() => {
    const onExpired = (event: Event) => {
      const detail = (event as CustomEvent<SessionExpiredDetail>).detail;
      useSessionStore.getState().clearSession();
      useUiStore.getState().closePaymentDialog();
      toastError('Session expired', detail?.message || 'Please sign in again.');
      navigate('/', { replace: true });
    };
    window.addEventListener(SESSION_EXPIRED_EVENT, onExpired);
    return () => window.removeEventListener(SESSION_EXPIRED_EVENT, onExpired);
  }, [navigate]);

  useEffect(() => showDeferredToast(), []);

  useEffect(() => {
    const { status, refreshing, refreshMe } = useSessionStore.getState();
    if (status !== 'unknown' || refreshing) return;
    refreshMe().catch((error: unknown) => {
      toastError('Error', errorMessage(error, 'Could not load your account'));
    });
  }, []);

  return (
    <>
      <Outlet />
      <GlobalDialogs />
    </>
  );
}
