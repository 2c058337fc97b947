// The route table of spec §2 (and decisions.md for /login and /test-dashboard). Shared by the browser router
// (App) and the memory routers of tests.
import type { RouteObject } from 'react-router-dom';
import { AdminPanelPage } from '../features/admin/AdminPanelPage';
import { AdminSectionPage } from '../features/admin/AdminSectionPage';
import { ADMIN_SECTIONS } from '../features/admin/adminSections';
import { AdminLoginPage } from '../features/auth/AdminLoginPage';
import { CreateAdminPage } from '../features/auth/CreateAdminPage';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { UserDashboard } from '../features/dashboard/UserDashboard';
import { ManageSubscriptionPage } from '../features/subscription/ManageSubscriptionPage';
import { TestDashboardPage } from '../features/demo/TestDashboardPage';
import { BrokerCallbackPage } from '../features/broker/BrokerCallbackPage';
import { LegalPage } from '../features/legal/LegalPage';
import { DevDashboardRoute, HomeRoute, LoginRoute, RequireAdmin, RequireAuth } from './guards';
import { NotFoundPage } from './NotFoundPage';
import { RootLayout } from './RootLayout';

export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/login', element: <LoginRoute /> },
      {
        path: '/dashboard',
        element: (
          <RequireAuth>
            <UserDashboard />
          </RequireAuth>
        ),
      },
      {
        path: '/subscription',
        element: (
          <RequireAuth>
            <ManageSubscriptionPage />
          </RequireAuth>
        ),
      },
      {
        path: '/admin',
        element: (
          <RequireAdmin>
            <AdminPanelPage />
          </RequireAdmin>
        ),
      },
      ...ADMIN_SECTIONS.map((section): RouteObject => ({
        path: `/admin/${section.path}`,
        element: (
          <RequireAdmin>
            <AdminSectionPage section={section} />
          </RequireAdmin>
        ),
      })),
      { path: '/create-admin', element: <CreateAdminPage /> },
      { path: '/admin-login', element: <AdminLoginPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/dev-dashboard', element: <DevDashboardRoute /> },
      { path: '/test-dashboard', element: <TestDashboardPage /> },
      { path: '/terms', element: <LegalPage document="terms" /> },
      { path: '/privacy', element: <LegalPage document="privacy" /> },
      {
        path: '/broker/:broker/callback',
        element: (
          <RequireAuth>
            <BrokerCallbackPage />
          </RequireAuth>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
