// Vitest setup for web component tests: happy-dom lacks a few browser APIs Mantine reads at render time, and every
// test starts from empty storage, fresh stores and no toasts.
import { afterEach, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { resetAllStores } from '../stores';

beforeEach(() => {
  window.localStorage.clear();
  resetAllStores();
});

afterEach(() => {
  cleanup();
  notifications.clean();
});

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.assign(window, { ResizeObserver: ResizeObserverStub });
}
