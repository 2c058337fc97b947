// UPI settings (spec §2 Payments, §5): UPI id as name@handle, account holder, and a QR image checked by its content
// (PNG, JPEG or WebP, ≤ 1 MB) with a preview before it is saved. The image is sent as the raw file body.
import { useEffect, useState, type FormEvent } from 'react';
import {
  Button,
  Card,
  FileInput,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { upiSettingsSchema, type UpiSettingsDto } from '@optionpilot/server/contract';
import { fieldErrorsOf, type FieldErrors } from '../../../lib/fieldErrors';
import { toastError, toastSuccess } from '../../../lib/toast';
import { useProtectedImage } from '../../../lib/useProtectedImage';
import { useSubmit } from '../../../lib/useSubmit';
import { useApiData } from '../../dashboard/useApiData';
import { readImageFile } from '../../../lib/imageFile';
import { paymentsApi } from './paymentsApi';

type Field = 'upiId' | 'accountHolderName' | 'qrCodeImage';

function QrPreview({ preview, saved }: { preview: string | null; saved: UpiSettingsDto | undefined }) {
  const stored = useProtectedImage(preview ? null : (saved?.qrCodeImage ?? null));
  const src = preview ?? stored.src;
  if (!src) {
    return (
      <Text size="sm" c="dimmed">
        No QR code uploaded.
      </Text>
    );
  }
  return <Image src={src} alt="UPI QR code preview" w={180} h={180} fit="contain" />;
}

export function UpiSettingsForm() {
  const { data, setData } = useApiData(paymentsApi.upiSettings);
  const [upiId, setUpiId] = useState('');
  const [holder, setHolder] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to update UPI settings' });

  useEffect(() => {
    if (!data) return;
    setUpiId(data.upiId ?? '');
    setHolder(data.accountHolderName ?? '');
  }, [data]);

  const choose = async (chosen: File | null) => {
    setFile(null);
    setPreview(null);
    setErrors((e) => ({ ...e, qrCodeImage: undefined }));
    if (!chosen) return;
    const read = await readImageFile(chosen);
    if (!read.ok) {
      setErrors((e) => ({ ...e, qrCodeImage: read.message }));
      toastError('Error', read.message);
      return;
    }
    setFile(chosen);
    setPreview(read.dataUrl);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = upiSettingsSchema.safeParse({ upiId, accountHolderName: holder });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error, ['upiId', 'accountHolderName'] as const));
      return;
    }
    setErrors({});
    void run(async () => {
      let saved = await paymentsApi.saveUpiSettings({
        upiId: parsed.data.upiId,
        accountHolderName: parsed.data.accountHolderName,
      });
      if (file) saved = await paymentsApi.uploadQr(file);
      setData(saved.settings);
      setFile(null);
      setPreview(null);
      toastSuccess('UPI Settings Updated');
    });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label="UPI Settings">
      <Title order={4} mb="sm">
        UPI Settings
      </Title>
      <form onSubmit={submit} noValidate aria-label="UPI settings form">
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Stack gap="sm">
            <TextInput
              label="UPI ID"
              placeholder="business@okaxis"
              value={upiId}
              onChange={(e) => setUpiId(e.currentTarget.value)}
              error={errors.upiId}
            />
            <TextInput
              label="Account holder name"
              value={holder}
              onChange={(e) => setHolder(e.currentTarget.value)}
              error={errors.accountHolderName}
            />
            <FileInput
              label="QR code image"
              description="PNG, JPEG or WebP, at most 1 MB"
              accept="image/png,image/jpeg,image/webp"
              clearable
              value={file}
              onChange={(f) => void choose(f)}
              error={errors.qrCodeImage}
            />
          </Stack>
          <QrPreview preview={preview} saved={data} />
        </SimpleGrid>
        <Group justify="flex-end" mt="sm">
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : 'Save UPI Settings'}
          </Button>
        </Group>
      </form>
    </Card>
  );
}
