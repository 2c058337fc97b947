// Refund of one payment (issue 11): all or part of what is left of it, a reason (printed on the GST credit note)
// and what happens to the subscription it paid for. Razorpay payments are refunded through Razorpay; UPI, bank
// and test payments are recorded here after the admin has returned the money.
import { paiseToRupees, rupeesToPaise } from '@optionpilot/engine/money';
import { useState } from 'react';
import { Alert, Button, Group, Modal, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import type { AdminPaymentDto, RefundPaymentRequest } from '@optionpilot/server/contract';
import { formatInr } from '../../../lib/format';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { paymentsApi } from '../payments/paymentsApi';

const END_ACTIONS = [
  { value: 'keep', label: 'Keep the end date' },
  { value: 'end_now', label: 'End the subscription now' },
  { value: 'set', label: 'Set a new end date' },
];

export function RefundDialog({
  row,
  onClose,
}: {
  row: AdminPaymentDto & { paymentId: number };
  onClose: (changed: boolean) => void;
}) {
  const leftPaise = row.amountPaise - row.refundedPaise;
  const [rupees, setRupees] = useState<number | string>(paiseToRupees(leftPaise));
  const [reason, setReason] = useState('');
  const [endAction, setEndAction] = useState<RefundPaymentRequest['endAction']>('keep');
  const [endDate, setEndDate] = useState('');
  const { busy, run } = useSubmit({ title: 'Refund failed', message: 'The refund could not be made' });

  const submit = () => {
    const body: RefundPaymentRequest = {
      amountPaise: rupeesToPaise(Number(rupees)),
      reason: reason.trim(),
      endAction,
      // The date field is a calendar day: the subscription ends at the start of it, IST.
      ...(endAction === 'set' && endDate ? { endDate: `${endDate}T00:00:00+05:30` } : {}),
    };
    void run(async () => {
      const answer = await paymentsApi.refund(row.paymentId, body);
      toastSuccess('Refund made', answer.message);
      onClose(true);
    });
  };

  return (
    <Modal opened onClose={() => onClose(false)} title="Refund payment" centered>
      <Stack gap="sm">
        <Alert color={row.method === 'razorpay' ? 'blue' : 'yellow'}>
          {row.method === 'razorpay'
            ? 'Razorpay returns the money to the payer; a GST credit note is issued.'
            : 'Return the money to the payer yourself first: this records the refund and issues a GST credit note.'}
        </Alert>
        <NumberInput
          label="Amount (₹)"
          description={`Paid ${formatInr(row.amountPaise)}; ${formatInr(leftPaise)} can still be refunded.`}
          value={rupees}
          onChange={setRupees}
          min={0.01}
          max={paiseToRupees(leftPaise)}
          decimalScale={2}
          thousandSeparator=","
        />
        <TextInput
          label="Reason"
          description="Printed on the credit note."
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maxLength={200}
        />
        <Select
          label="Subscription"
          data={END_ACTIONS}
          value={endAction}
          allowDeselect={false}
          onChange={(v) => setEndAction((v ?? 'keep') as RefundPaymentRequest['endAction'])}
        />
        {endAction === 'set' && (
          <TextInput
            type="date"
            label="New end date"
            value={endDate}
            onChange={(e) => setEndDate(e.currentTarget.value)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose(false)} disabled={busy}>
            Cancel
          </Button>
          <Button color="red" onClick={submit} loading={busy}>
            Refund
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
