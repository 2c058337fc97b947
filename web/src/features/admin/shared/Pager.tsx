// Server-side pagination under a table: "x–y of total" and the page buttons.
import { Group, Pagination, Text } from '@mantine/core';

export interface PageInfo {
  total: number;
  page: number;
  pageSize: number;
}

export function Pager({ info, onPage }: { info: PageInfo | undefined; onPage: (page: number) => void }) {
  if (!info || info.total === 0) return null;
  const pages = Math.max(1, Math.ceil(info.total / info.pageSize));
  const first = (info.page - 1) * info.pageSize + 1;
  const last = Math.min(info.total, info.page * info.pageSize);
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">
        {first}–{last} of {info.total.toLocaleString('en-IN')}
      </Text>
      {pages > 1 && <Pagination total={pages} value={info.page} onChange={onPage} size="sm" />}
    </Group>
  );
}
