// What a server-side table shows besides rows: loading, the server's error, or an empty result.
import { Loader, Text } from '@mantine/core';

export function TableState({
  loading,
  error,
  empty,
  emptyText,
}: {
  loading: boolean;
  error: string | null;
  empty: boolean;
  emptyText: string;
}) {
  if (error) return <Text c="red.7">{error}</Text>;
  if (loading && empty) return <Loader size="sm" aria-label="Loading" />;
  if (empty) return <Text c="dimmed">{emptyText}</Text>;
  return null;
}
