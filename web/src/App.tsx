import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from './components/AppProviders';
import { appRoutes } from './routes/routes';

/** The whole single-page app: Mantine theme, toasts and the route table. */
export function App() {
  // Created once per mount rather than at import time, so importing App has no side effects.
  const [router] = useState(() => createBrowserRouter(appRoutes));
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
