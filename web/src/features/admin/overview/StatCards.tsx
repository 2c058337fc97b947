// The Overview's four figures (spec §2): Active Users, Monthly Revenue and Total Trades link to their pages; Win Rate
// is the share of closed trades with a profit. Computed on the server (test users left out of revenue). Monthly
// Revenue is this IST month's net of refunds, with gross, refunds and the GST collected beside it (issue 18).
import type { ReactNode } from 'react';
import { Anchor, Card, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatInr } from '../../../lib/format';
import { adminApi } from '../adminApi';
import { useRefreshing } from '../shared/useRefreshing';

/** How often the figures are re-read while the overview is open. */
export const STATS_REFRESH_MS = 15_000;

function Figure({
  title,
  value,
  to,
  details = [],
}: {
  title: string;
  value: ReactNode;
  to?: string;
  details?: readonly string[];
}) {
  const label = (
    <Text size="sm" c="dimmed" fw={500}>
      {title}
    </Text>
  );
  return (
    <Card withBorder padding="md" component="section" aria-label={title}>
      {to ? (
        <Anchor component={Link} to={to} underline="hover">
          {label}
        </Anchor>
      ) : (
        label
      )}
      <Text size="xl" fw={700} aria-label={`${title} value`}>
        {value}
      </Text>
      {details.map((line) => (
        <Text key={line} size="xs" c="dimmed">
          {line}
        </Text>
      ))}
    </Card>
  );
}

export function StatCards() {
  const { data, error } = useRefreshing(adminApi.stats, STATS_REFRESH_MS);
  const show = (value: string) => (data ? value : '—');
  return (
    <>
      {error && !data && (
        <Text c="red.7" size="sm">
          {error}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
        <Figure title="Active Users" to="/admin/users" value={show(String(data?.activeUsers ?? 0))} />
        <Figure
          title="Monthly Revenue"
          to="/admin/revenue"
          value={show(formatInr(data?.monthlyRevenue ?? 0))}
          details={
            data
              ? [
                  `Net of refunds · gross ${formatInr(data.monthlyGrossPaise)}, refunds ${formatInr(data.monthlyRefundsPaise)}`,
                  `GST: CGST ${formatInr(data.monthlyGst.cgstPaise)} · SGST ${formatInr(data.monthlyGst.sgstPaise)} · IGST ${formatInr(data.monthlyGst.igstPaise)}`,
                ]
              : []
          }
        />
        <Figure
          title="Total Trades"
          to="/admin/trades"
          value={show((data?.totalTrades ?? 0).toLocaleString('en-IN'))}
        />
        <Figure title="Win Rate" value={show(`${(data?.winRate ?? 0).toFixed(1)}%`)} />
      </SimpleGrid>
    </>
  );
}
