// The operator's business details (name, address, GSTIN, support contacts and hours) and whether the visitors'
// demo runs come from the server's configuration (`GET /api/config`), so a self-hosting operator changes them
// without rebuilding the web bundle.
import { useEffect, useState } from 'react';
import type { PublicConfigDto } from '@optionpilot/server/contract';
import { api } from '../../api/client';

export type OperatorDetails = PublicConfigDto['operator'];

/** The public configuration once loaded; null while loading or when the server cannot be reached. */
export function usePublicConfig(): PublicConfigDto | null {
  const [config, setConfig] = useState<PublicConfigDto | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api
      .get<PublicConfigDto>('/api/config', { signal: controller.signal })
      .then(setConfig)
      // Contacts are shown once known; a failed load leaves the rest of the page working.
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return config;
}

/** The operator's details once loaded; null while loading or when the server cannot be reached. */
export function useOperatorDetails(): OperatorDetails | null {
  return usePublicConfig()?.operator ?? null;
}
