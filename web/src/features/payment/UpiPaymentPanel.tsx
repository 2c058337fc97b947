// "Pay by UPI" inside the payment dialog: the admins' UPI id and QR, the exact amount with GST, a 12-digit UTR and an
// optional screenshot (checked by content like the QR). Submitting creates a pending request that an admin reviews;
// the dashboard then shows "Payment under review".
import { useCallback, useState, type FormEvent } from 'react';
import { Alert, Button, FileInput, Group, Image, Loader, Stack, Text, TextInput } from '@mantine/core';
import { upiRequestSchema } from '@optionpilot/server/contract';
import { formatInr } from '../../lib/format';
import { toastError, toastSuccess } from '../../lib/toast';
import { useProtectedImage } from '../../lib/useProtectedImage';
import { useSubmit } from '../../lib/useSubmit';
import { useLiveStore } from '../../live/stores';
import { useApiData } from '../dashboard/useApiData';
import { readImageFile } from '../../lib/imageFile';
import { upiApi } from './upiApi';

export function UpiPaymentPanel({ onBack, onSubmitted }: { onBack: () => void; onSubmitted: () => void }) {
  const load = useCallback(() => upiApi.info(), []);
  const { data, error } = useApiData(load);
  const qr = useProtectedImage(data?.upi.qrCodeImage ?? null);
  const [utr, setUtr] = useState('');
  const [utrError, setUtrError] = useState<string | null>(null);
  const [screenshot, setScreenshot] = useState<File | null>(null);
  const [screenshotError, setScreenshotError] = useState<string | null>(null);
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to submit the payment' });

  const choose = async (file: File | null) => {
    setScreenshot(null);
    setScreenshotError(null);
    if (!file) return;
    const read = await readImageFile(file);
    if (read.ok) setScreenshot(file);
    else setScreenshotError(read.message);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = upiRequestSchema.safeParse({ utrNumber: utr });
    if (!parsed.success) {
      setUtrError(parsed.error.issues[0]?.message ?? 'utrNumber must be 12 digits');
      return;
    }
    setUtrError(null);
    void run(async () => {
      let answer = await upiApi.submit(parsed.data.utrNumber);
      if (screenshot) {
        try {
          answer = await upiApi.uploadScreenshot(answer.request.id, screenshot);
        } catch {
          // The request stands without it; say so rather than pretend.
          toastError('Error', 'The request was sent, but the screenshot could not be uploaded.');
        }
      }
      useLiveStore.getState().applyPaymentRequest(answer.request);
      toastSuccess('Payment submitted', 'Your payment is under review. You will see it here once approved.');
      onSubmitted();
    });
  };

  if (error) return <Text c="red.7">{error}</Text>;
  if (!data) return <Loader size="sm" aria-label="Loading" />;
  if (!data.upi.configured || !data.upi.upiId) {
    return (
      <Stack gap="sm">
        <Alert color="yellow">UPI payments are not set up yet. Please pay by card or contact support.</Alert>
        <Button variant="default" onClick={onBack}>
          Back
        </Button>
      </Stack>
    );
  }
  if (data.pending) {
    return (
      <Stack gap="sm">
        <Alert color="blue" title="Payment under review">
          You already have a payment waiting for review.
        </Alert>
        <Button variant="default" onClick={onBack}>
          Back
        </Button>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Pay by UPI">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text c="dimmed">Amount (incl. GST)</Text>
          <Text fw={700} ff="monospace" aria-label="UPI amount">
            {formatInr(data.amountPaise)}
          </Text>
        </Group>
        <Group justify="space-between">
          <Text c="dimmed">Pay to UPI ID</Text>
          <Text fw={600} aria-label="UPI ID">
            {data.upi.upiId}
          </Text>
        </Group>
        {data.upi.accountHolderName && (
          <Text size="sm" c="dimmed" ta="right">
            {data.upi.accountHolderName}
          </Text>
        )}
        {qr.src && <Image src={qr.src} alt="UPI QR code" w={200} h={200} fit="contain" mx="auto" />}
        <TextInput
          label="UTR number"
          description="The 12-digit reference your UPI app shows after paying"
          inputMode="numeric"
          maxLength={12}
          value={utr}
          onChange={(e) => setUtr(e.currentTarget.value.trim())}
          error={utrError}
        />
        <FileInput
          label="Payment screenshot (optional)"
          accept="image/png,image/jpeg,image/webp"
          clearable
          value={screenshot}
          onChange={(f) => void choose(f)}
          error={screenshotError}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onBack} disabled={busy}>
            Back
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Submitting...' : 'Submit payment'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
