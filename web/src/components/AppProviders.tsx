import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '../lib/toast';
import { cssVariablesResolver, theme } from '../theme';

export interface AppProvidersProps {
  children: ReactNode;
  /** 'test' turns off Mantine's transitions and portals so tests see dialogs and toasts at once */
  env?: 'default' | 'test';
}

/** Mantine theme and the toast host shared by the app and by component tests. */
export function AppProviders({ children, env = 'default' }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      env={env}
    >
      {/* Bottom-right: a top-right toast would cover the header's Logout button for its 5 seconds. */}
      <Notifications limit={TOAST_LIMIT} autoClose={TOAST_DURATION_MS} position="bottom-right" />
      {children}
    </MantineProvider>
  );
}
