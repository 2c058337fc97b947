// Every store of the web app, and one reset for tests so no state leaks from one test into the next.
import { resetSessionStore } from './session';
import { resetUiStore } from './ui';

export * from './session';
export * from './ui';

/** Resets every store to its initial state (call after clearing localStorage in tests). */
export function resetAllStores(): void {
  resetSessionStore();
  resetUiStore();
}
