import { useState, type ReactNode } from 'react';
import { AppShell, Burger, Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { browser } from '../lib/browser';
import { displayNameOf, selectUser, useSessionStore } from '../stores/session';
import { BrandMark } from './BrandMark';
import { ColorSchemeToggle } from './ColorSchemeToggle';

export interface SignedInLayoutProps {
  children: ReactNode;
  /** optional side navigation (the admin pages) */
  navbar?: ReactNode;
}

/** Logs out (spec §4): revoke the session on the server, drop the token, and load the app afresh at `/`. */
export async function logoutAndReload(): Promise<void> {
  await useSessionStore.getState().logout();
  browser.assign('/');
}

/** Page frame for signed-in screens: top bar with the welcome, theme toggle and Logout. */
export function SignedInLayout({ children, navbar }: SignedInLayoutProps) {
  const user = useSessionStore(selectUser);
  const [loggingOut, setLoggingOut] = useState(false);
  const [navOpened, { toggle: toggleNav }] = useDisclosure(false);

  const onLogout = () => {
    setLoggingOut(true);
    void logoutAndReload();
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={navbar ? { width: 240, breakpoint: 'sm', collapsed: { mobile: !navOpened } } : undefined}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {navbar && (
              <Burger
                opened={navOpened}
                onClick={toggleNav}
                hiddenFrom="sm"
                size="sm"
                aria-label="Toggle navigation"
              />
            )}
            <BrandMark />
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text fw={500} truncate="end" maw={{ base: 140, sm: 320 }}>
              Welcome, {displayNameOf(user)}
            </Text>
            <ColorSchemeToggle />
            <Button
              variant="light"
              color="red"
              leftSection={<IconLogout size={16} />}
              onClick={onLogout}
              disabled={loggingOut}
            >
              Logout
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      {navbar && <AppShell.Navbar p="sm">{navbar}</AppShell.Navbar>}
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
