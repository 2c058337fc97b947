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
        {/* On a phone (390 px) the welcome gives way: it truncates, the brand shows its icon only, and the theme
            toggle and Logout keep their full size, so Logout always reads "Logout" and takes a tap. */}
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            {navbar && (
              <Burger
                opened={navOpened}
                onClick={toggleNav}
                hiddenFrom="sm"
                size="sm"
                aria-label="Toggle navigation"
              />
            )}
            <BrandMark compactBelow="sm" />
          </Group>
          <Group gap="sm" wrap="nowrap" miw={0} justify="flex-end" style={{ flex: 1 }}>
            <Text fw={500} truncate="end" miw={0} maw={{ base: '100%', sm: 320 }}>
              Welcome, {displayNameOf(user)}
            </Text>
            <ColorSchemeToggle />
            <Button
              variant="light"
              color="red"
              leftSection={<IconLogout size={16} />}
              onClick={onLogout}
              disabled={loggingOut}
              style={{ flexShrink: 0 }}
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
