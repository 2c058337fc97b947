// Revenue by IST month (issue 18): gross received, refunds and net, with the GST of the month's tax documents net
// of credit notes (CGST, SGST, IGST) beside them, and the GST register (one row per invoice and per credit note)
// as a CSV for the accountant. Every figure is computed on the server.
import { useState } from 'react';
import { Button, Card, Group, Table, Text, TextInput, Title } from '@mantine/core';
import type { RevenueFiguresDto, RevenueSummaryResponse } from '@optionpilot/server/contract';
import { errorMessage } from '../../../api/client';
import { downloadFile } from '../../../lib/download';
import { formatInr } from '../../../lib/format';
import { toastError } from '../../../lib/toast';
import type { ApiData } from '../../dashboard/useApiData';
import { buildQuery } from '../shared/query';
import { TableState } from '../shared/TableState';

export interface MonthRange {
  from: string;
  to: string;
}

const MONTH_NAME = new Intl.DateTimeFormat('en-IN', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "2026-11" → "Nov 2026" */
export function monthLabel(month: string): string {
  return MONTH_NAME.format(new Date(`${month}-01T00:00:00Z`));
}

function FigureCells({ f }: { f: RevenueFiguresDto }) {
  return (
    <>
      <Table.Td ta="right">{formatInr(f.grossPaise)}</Table.Td>
      <Table.Td ta="right">{f.refundsPaise > 0 ? `−${formatInr(f.refundsPaise)}` : formatInr(0)}</Table.Td>
      <Table.Td ta="right" fw={600}>
        {formatInr(f.netPaise)}
      </Table.Td>
      <Table.Td ta="right">{formatInr(f.taxablePaise)}</Table.Td>
      <Table.Td ta="right">{formatInr(f.cgstPaise)}</Table.Td>
      <Table.Td ta="right">{formatInr(f.sgstPaise)}</Table.Td>
      <Table.Td ta="right">{formatInr(f.igstPaise)}</Table.Td>
    </>
  );
}

export function MonthlyRevenueCard({
  summary,
  range,
  onRange,
}: {
  summary: ApiData<RevenueSummaryResponse>;
  range: MonthRange;
  onRange: (range: MonthRange) => void;
}) {
  const { data, loading, error } = summary;
  const [downloading, setDownloading] = useState(false);
  const months = data?.months ?? [];
  // Empty inputs mean the server's default (the twelve months up to this one); show what it chose.
  const from = range.from || data?.from || '';
  const to = range.to || data?.to || '';

  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(
        `/api/admin/revenue/gst-register.csv${buildQuery({ from, to })}`,
        `gst-register-${from}-to-${to}.csv`,
      );
    } catch (err) {
      toastError('Download failed', errorMessage(err, 'Could not download the GST register'));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label="Revenue by month">
      <Group justify="space-between" align="flex-end" mb="sm">
        <Title order={4}>Revenue by month (IST)</Title>
        <Group align="flex-end">
          <TextInput
            label="From month"
            type="month"
            value={from}
            onChange={(e) => onRange({ from: e.currentTarget.value, to })}
          />
          <TextInput
            label="To month"
            type="month"
            value={to}
            onChange={(e) => onRange({ from, to: e.currentTarget.value })}
          />
          <Button variant="light" onClick={() => void download()} disabled={downloading || !from || !to}>
            Download GST register (CSV)
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Gross is money received, refunds are refunds processed, net is the difference (test accounts left
        out). Taxable value and GST are the month&apos;s tax invoices less its credit notes; the CSV lists
        each of them.
      </Text>
      <TableState loading={loading} error={error} empty={months.length === 0} emptyText="No months." />
      {months.length > 0 && data && (
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label="Revenue by month">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Month</Table.Th>
                <Table.Th ta="right">Gross</Table.Th>
                <Table.Th ta="right">Refunds</Table.Th>
                <Table.Th ta="right">Net</Table.Th>
                <Table.Th ta="right">Taxable value</Table.Th>
                <Table.Th ta="right">CGST</Table.Th>
                <Table.Th ta="right">SGST</Table.Th>
                <Table.Th ta="right">IGST</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...months].reverse().map((m) => (
                <Table.Tr key={m.month}>
                  <Table.Td>{monthLabel(m.month)}</Table.Td>
                  <FigureCells f={m} />
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th>Total</Table.Th>
                <FigureCells f={data.totals} />
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
