import { useUiStore } from '../../stores/ui';

// The login/signup dialogs belong to the app shell; the landing page only asks the shared UI store to open them.
// Calling through getState() keeps these usable from plain click handlers without subscribing the page to the store.

/** Opens the app's signup dialog. */
export function openSignup(): void {
  useUiStore.getState().openAuthDialog('signup');
}

/** Opens the app's login dialog. */
export function openLogin(): void {
  useUiStore.getState().openAuthDialog('login');
}
