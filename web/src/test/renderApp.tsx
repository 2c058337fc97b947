// Apart from render.tsx so that component tests do not load the whole route table (every page) just to render.
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { appRoutes } from '../routes/routes';
import { renderWithProviders } from './render';

/** Renders the whole app's route table at `path`; returns the router to inspect `router.state.location`. */
export function renderApp(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const view = renderWithProviders(<RouterProvider router={router} />);
  return { router, ...view };
}
