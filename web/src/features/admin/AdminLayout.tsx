import { useState, type ReactNode } from 'react';
import { Divider, NavLink, Stack } from '@mantine/core';
import { IconGauge, IconLayoutDashboard, IconLogout } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { logoutAndReload, SignedInLayout } from '../../components/SignedInLayout';
import { ADMIN_SECTIONS } from './adminSections';

/** Admin frame: the signed-in top bar plus a side menu of the admin pages, ending with Logout (on a phone the menu
 * is where an admin looks for it). */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const [loggingOut, setLoggingOut] = useState(false);
  const nav = (
    <Stack gap={2} component="nav" aria-label="Admin">
      <NavLink
        component={Link}
        to="/admin"
        label="Overview"
        leftSection={<IconGauge size={16} />}
        active={pathname === '/admin' || pathname === '/'}
      />
      {ADMIN_SECTIONS.map((section) => (
        <NavLink
          key={section.path}
          component={Link}
          to={`/admin/${section.path}`}
          label={section.label}
          active={pathname === `/admin/${section.path}`}
        />
      ))}
      <NavLink
        component={Link}
        to="/dashboard"
        label="User dashboard"
        leftSection={<IconLayoutDashboard size={16} />}
        active={pathname === '/dashboard'}
      />
      <Divider my="xs" />
      <NavLink
        component="button"
        label="Logout"
        leftSection={<IconLogout size={16} />}
        color="red"
        disabled={loggingOut}
        onClick={() => {
          setLoggingOut(true);
          void logoutAndReload();
        }}
      />
    </Stack>
  );
  return <SignedInLayout navbar={nav}>{children}</SignedInLayout>;
}
