import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from '../components/AppProviders';
import { appRoutes } from '../routes/routes';

/** Renders a component inside the Mantine theme and toast host, with transitions and portals off. */
export function renderWithProviders(ui: ReactElement) {
  return render(<AppProviders env="test">{ui}</AppProviders>);
}

/** Renders the whole app's route table at `path`; returns the router to inspect `router.state.location`. */
export function renderApp(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const view = render(
    <AppProviders env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...view };
}
