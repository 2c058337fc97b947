// Review of one payment request (spec §2 Payments, §5, §8): a status must be chosen ("Status Required"), notes are
// optional for an approval and required by the server for a rejection (the trader sees them). Approval activates or
// extends the subscription on the server, exactly as a verified checkout does.
import { useState } from 'react';
import { Button, Group, Image, Modal, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { formatInr, formatIstDateTime } from '../../../lib/format';
import { toastError, toastSuccess } from '../../../lib/toast';
import { useProtectedImage } from '../../../lib/useProtectedImage';
import { useSubmit } from '../../../lib/useSubmit';
import { LabeledValue } from '../../../components/LabeledValue';
import { paymentsApi, type ReviewBody } from './paymentsApi';

/** What the dialog shows about the request under review. */
export interface ReviewTarget {
  id: number;
  name: string;
  email: string;
  amountPaise: number;
  utrNumber: string | null;
  createdAt: string;
  paymentScreenshot: string | null;
}

const STATUS_OPTIONS = [
  { value: 'approved', label: 'Approve' },
  { value: 'rejected', label: 'Reject' },
];

export function ReviewDialog({
  target,
  initialStatus = null,
  onClose,
}: {
  target: ReviewTarget;
  initialStatus?: ReviewBody['status'] | null;
  onClose: (changed: boolean) => void;
}) {
  const [status, setStatus] = useState<ReviewBody['status'] | null>(initialStatus);
  const [notes, setNotes] = useState('');
  const screenshot = useProtectedImage(target.paymentScreenshot);
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to update payment request' });

  const submit = () => {
    if (!status) {
      toastError('Status Required', 'Please select a status for the payment request');
      return;
    }
    const body: ReviewBody = { status };
    if (notes.trim()) body.adminNotes = notes.trim();
    void run(async () => {
      await paymentsApi.review(target.id, body);
      toastSuccess(
        'Payment Request Updated',
        status === 'approved' ? 'The subscription is active.' : 'Rejected.',
      );
      onClose(true);
    });
  };

  return (
    <Modal opened onClose={() => onClose(false)} title="Review payment request" centered size="lg">
      <Stack gap="sm">
        <SimpleGrid cols={2}>
          <LabeledValue label="User" value={`${target.name} (${target.email})`} />
          <LabeledValue label="Amount" value={formatInr(target.amountPaise)} />
          <LabeledValue label="UTR number" value={target.utrNumber ?? '—'} />
          <LabeledValue label="Submitted" value={formatIstDateTime(target.createdAt)} />
        </SimpleGrid>
        {target.paymentScreenshot && (
          <div>
            <Text size="xs" c="dimmed">
              Screenshot
            </Text>
            {screenshot.src ? (
              <Image src={screenshot.src} alt="Payment screenshot" mah={320} fit="contain" />
            ) : (
              <Text size="sm">{screenshot.error ?? 'Loading...'}</Text>
            )}
          </div>
        )}
        <Select
          label="Status"
          placeholder="Select a status"
          data={STATUS_OPTIONS}
          value={status}
          onChange={(v) => setStatus(v === 'approved' || v === 'rejected' ? v : null)}
        />
        <Textarea
          label="Admin notes"
          description="Shown to the trader; required when rejecting."
          value={notes}
          onChange={(e) => setNotes(e.currentTarget.value)}

          rows={3}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose(false)} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={busy}>
            {busy ? 'Saving...' : 'Update'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
