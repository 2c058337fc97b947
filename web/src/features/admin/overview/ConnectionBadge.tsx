// Whether the admin panel hears the server live or is polling, so an admin knows how fresh the figures are.
import { Badge } from '@mantine/core';
import { useAdminLiveStore } from '../live/adminLiveStore';

export function ConnectionBadge() {
  const connection = useAdminLiveStore((s) => s.connection);
  if (connection === 'connected') {
    return (
      <Badge color="green" variant="dot">
        Live
      </Badge>
    );
  }
  if (connection === 'disconnected') {
    return (
      <Badge color="orange" variant="dot">
        Polling
      </Badge>
    );
  }
  return (
    <Badge color="gray" variant="dot">
      Connecting
    </Badge>
  );
}
