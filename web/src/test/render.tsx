import type { ReactElement } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { AppProviders } from '../components/AppProviders';

/**
 * Renders a component inside the app's own providers (theme, toast host); env "test" turns off Mantine's
 * transitions and portals so dialogs and toasts appear synchronously.
 */
export function renderWithProviders(ui: ReactElement): RenderResult {
  return render(<AppProviders env="test">{ui}</AppProviders>);
}
