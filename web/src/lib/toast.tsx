// Toasts of spec §9: Mantine notifications, one visible at a time (limit set on <Notifications> in AppProviders),
// shown for 5 seconds. Callable outside React so stores and the API client can report too.
import type { ReactNode } from 'react';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconInfoCircle } from '@tabler/icons-react';

/** Display duration of every toast (spec §9). */
export const TOAST_DURATION_MS = 5000;
/** At most this many toasts are visible at once; later ones queue (spec §9). */
export const TOAST_LIMIT = 1;

export interface ToastOptions {
  /** milliseconds, or false to keep the toast until dismissed */
  autoClose?: number | false;
}

function show(
  color: string,
  icon: ReactNode,
  title: string,
  message: ReactNode | undefined,
  options: ToastOptions = {},
): string {
  return notifications.show({
    title,
    // Mantine requires a message; a title-only toast renders an empty description.
    message: message ?? null,
    color,
    icon,
    autoClose: options.autoClose ?? TOAST_DURATION_MS,
    withBorder: true,
  });
}

/** A green confirmation toast, e.g. toastSuccess('Logged in successfully'). */
export function toastSuccess(title: string, message?: ReactNode, options?: ToastOptions): string {
  return show('teal', <IconCheck size={18} />, title, message, options);
}

/** A red (destructive) error toast, e.g. toastError('Error', 'Invalid credentials'). */
export function toastError(title: string, message?: ReactNode, options?: ToastOptions): string {
  return show('red', <IconAlertTriangle size={18} />, title, message, options);
}

/** A neutral blue toast for information such as the test-mode reset link. */
export function toastInfo(title: string, message?: ReactNode, options?: ToastOptions): string {
  return show('blue', <IconInfoCircle size={18} />, title, message, options);
}

const DEFERRED_TOAST_KEY = 'optionpilot:deferred-toast';

/**
 * Shows a success toast on the next page load instead of now: for flows that end in a full reload (spec §4, a
 * verified payment), where a toast shown before the reload would vanish one round trip later.
 */
export function toastSuccessAfterReload(title: string, message?: string): void {
  try {
    sessionStorage.setItem(DEFERRED_TOAST_KEY, JSON.stringify({ title, message }));
  } catch {
    // Storage refused (private mode quota): show it now rather than lose it.
    toastSuccess(title, message);
  }
}

/** Shows (once) a toast deferred by toastSuccessAfterReload; called when the app starts. */
export function showDeferredToast(): void {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(DEFERRED_TOAST_KEY);
    sessionStorage.removeItem(DEFERRED_TOAST_KEY);
  } catch {
    return;
  }
  if (!raw) return;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && 'title' in parsed && typeof parsed.title === 'string') {
      const message = 'message' in parsed && typeof parsed.message === 'string' ? parsed.message : undefined;
      toastSuccess(parsed.title, message);
    }
  } catch {
    // A malformed entry is dropped; it only ever held a toast.
  }
}
