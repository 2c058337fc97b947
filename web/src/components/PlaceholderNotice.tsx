import { Alert } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** Marks a screen whose real content comes with a later release, so nobody mistakes it for the product. */
export function PlaceholderNotice({ children }: { children: ReactNode }) {
  return (
    <Alert variant="light" color="gray" icon={<IconTools size={18} />} title="Placeholder">
      {children}
    </Alert>
  );
}
