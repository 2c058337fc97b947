// Route guards of spec §2. Each waits for the stored session to be checked ('unknown') before deciding, so a
// signed-in user reloading /admin is not bounced to the sign-in page for a split second.
import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { FullPageLoader } from '../components/FullPageLoader';
import { AdminPanelPage } from '../features/admin/AdminPanelPage';
import { UserDashboard } from '../features/dashboard/UserDashboard';
import { LandingPage } from '../features/landing/LandingPage';
import { selectStatus, useSessionStore } from '../stores/session';
import { selectAuthDialog, useUiStore } from '../stores/ui';

/** `/`: the landing page for visitors, the dashboard for users, the admin panel for admins. */
export function HomeRoute() {
  const status = useSessionStore(selectStatus);
  if (status === 'unknown') return <FullPageLoader />;
  if (status === 'admin') return <AdminPanelPage />;
  if (status === 'user') return <UserDashboard />;
  return <LandingPage />;
}

/** Signed-in users and admins only; visitors go to `/`. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const status = useSessionStore(selectStatus);
  if (status === 'unknown') return <FullPageLoader />;
  if (status === 'anonymous') return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** Admins only; visitors go to the admin sign-in, signed-in non-admins to `/`. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const status = useSessionStore(selectStatus);
  if (status === 'unknown') return <FullPageLoader />;
  if (status === 'anonymous') return <Navigate to="/admin-login" replace />;
  if (status === 'user') return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** `/dev-dashboard`: visitors go to the demo at `/test-dashboard`; anyone signed in sees the user dashboard. */
export function DevDashboardRoute() {
  const status = useSessionStore(selectStatus);
  if (status === 'unknown') return <FullPageLoader />;
  if (status === 'anonymous') return <Navigate to="/test-dashboard" replace />;
  return <UserDashboard />;
}

/** `/login` (decisions.md): the landing page with the login dialog open; closing the dialog returns to `/`. */
export function LoginRoute() {
  const status = useSessionStore(selectStatus);
  const dialog = useUiStore(selectAuthDialog);
  const navigate = useNavigate();
  const wasOpen = useRef(false);

  useEffect(() => {
    if (status === 'anonymous') useUiStore.getState().openAuthDialog('login');
  }, [status]);

  useEffect(() => {
    if (dialog !== null) wasOpen.current = true;
    else if (wasOpen.current) navigate('/', { replace: true });
  }, [dialog, navigate]);

  if (status === 'unknown') return <FullPageLoader />;
  if (status !== 'anonymous') return <Navigate to="/" replace />;
  return <LandingPage />;
}
