import { Alert, Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { formatInr } from '../../lib/format';
import { selectPaymentDialogOpen, useUiStore } from '../../stores/ui';

// Plan price and GST in paise (spec §9): ₹4,999 + 18% GST (₹899.82) = ₹5,898.82.
const PLAN_PAISE = 499900;
const GST_PAISE = (PLAN_PAISE * 18) / 100;
const TOTAL_PAISE = PLAN_PAISE + GST_PAISE;

/**
 * "Complete Payment" (spec §2). Placeholder: it shows the price breakdown; the checkout itself (create order,
 * Razorpay, verification) arrives with the payments feature, which replaces the body of this dialog. Open it
 * from anywhere with `useUiStore.getState().openPaymentDialog()`.
 */
export function PaymentDialogPlaceholder() {
  const opened = useUiStore(selectPaymentDialogOpen);
  const close = () => useUiStore.getState().closePaymentDialog();
  return (
    <Modal opened={opened} onClose={close} title="Complete Payment" centered>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text>Professional Plan</Text>
          <Text ff="monospace">{formatInr(PLAN_PAISE)}</Text>
        </Group>
        <Group justify="space-between">
          <Text c="dimmed">GST (18%)</Text>
          <Text ff="monospace">{formatInr(GST_PAISE)}</Text>
        </Group>
        <Divider />
        <Group justify="space-between">
          <Text fw={700}>Total</Text>
          <Text fw={700} ff="monospace">
            {formatInr(TOTAL_PAISE)}
          </Text>
        </Group>
        <Alert variant="light" icon={<IconInfoCircle size={18} />} title="Checkout coming soon">
          Online payment is not switched on in this build yet. Your account is ready; you can subscribe as
          soon as checkout opens.
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
