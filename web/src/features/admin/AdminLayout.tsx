import type { ReactNode } from 'react';
import { NavLink, Stack } from '@mantine/core';
import { IconGauge, IconLayoutDashboard } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { SignedInLayout } from '../../components/SignedInLayout';
import { ADMIN_SECTIONS } from './adminSections';

/** Admin frame: the signed-in top bar plus a side menu of the admin pages. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
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
    </Stack>
  );
  return <SignedInLayout navbar={nav}>{children}</SignedInLayout>;
}
