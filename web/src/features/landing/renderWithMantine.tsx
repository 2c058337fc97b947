import type { ReactElement } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { AppProviders } from '../../components/AppProviders';

/**
 * Test-only render inside the app's own providers (theme, toast host); env "test" turns off Mantine's transitions
 * and portals so dialogs and toasts appear synchronously.
 */
export function renderWithMantine(ui: ReactElement): RenderResult {
  return render(<AppProviders env="test">{ui}</AppProviders>);
}

interface HappyDomWindow {
  happyDOM?: { setViewport(viewport: { width: number; height: number }): void };
}

/** Resizes the happy-dom viewport so Mantine's hiddenFrom/visibleFrom media queries apply as on that screen. */
export function setViewport(width: number, height: number): void {
  const api = (window as Window & HappyDomWindow).happyDOM;
  if (!api) throw new Error('setViewport needs the happy-dom test environment');
  api.setViewport({ width, height });
}
