// Where manual payments go: the operator's UPI id, account holder and QR image (a singleton row). Any signed-in
// user reads them (the payment dialog shows them); admins change them, audited with the before → after values.
import type { z } from 'zod';
import type { UpiSettingsDto, upiSettingsSchema } from '../../contract';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { getUpiSettings, saveUpiSettings, type UpiSettingsRow } from '../../db';
import { isoOrNull } from '../../presenters/time';
import { announceAudit, recordAudit } from '../audit';
import { imageFromDataUrl, toDataUrl, type CheckedImage } from './images';

export const QR_URL = '/api/upi-settings/qr';

/** UpiSettingsRow → UpiSettingsDto; the QR is a URL (with the save time, so browsers refetch a new one). */
export function presentUpiSettings(row: UpiSettingsRow | undefined): UpiSettingsDto {
  if (!row)
    return { configured: false, upiId: null, accountHolderName: null, qrCodeImage: null, updatedAt: null };
  return {
    configured: true,
    upiId: row.upi_id,
    accountHolderName: row.account_holder_name,
    qrCodeImage: row.qr_code_image === null ? null : `${QR_URL}?v=${row.updated_at}`,
    updatedAt: isoOrNull(row.updated_at),
  };
}

/** The stored QR image, or 404. */
export async function upiQrImage(deps: Pick<Deps, 'db'>): Promise<CheckedImage> {
  const row = await getUpiSettings(deps.db.knex);
  if (!row?.qr_code_image) throw new AppError('not_found', { message: 'No UPI QR code has been uploaded.' });
  return imageFromDataUrl(row.qr_code_image, 'qrCodeImage');
}

/**
 * Saves the UPI settings. `qr`: a checked image to store, null to remove the stored one, undefined to keep it.
 * Without any saved settings, only a full save (id and holder) can create them.
 */
export async function saveUpi(props: {
  deps: Pick<Deps, 'db' | 'clock' | 'realtime'>;
  adminId: number;
  fields: Pick<z.output<typeof upiSettingsSchema>, 'upiId' | 'accountHolderName'> | null;
  qr: CheckedImage | null | undefined;
}): Promise<UpiSettingsDto> {
  const { deps, adminId, fields, qr } = props;
  const now = deps.clock.now();
  const { row, log } = await deps.db.knex.transaction(async (trx) => {
    const before = await getUpiSettings(trx);
    if (!before && !fields)
      throw new AppError('validation_failed', {
        message: 'upiId: save the UPI id and account holder before uploading a QR code.',
        field: 'upiId',
      });
    const row = await saveUpiSettings(
      trx,
      {
        upi_id: fields?.upiId ?? before?.upi_id ?? '',
        account_holder_name: fields?.accountHolderName ?? before?.account_holder_name ?? '',
        qr_code_image:
          qr === undefined ? (before?.qr_code_image ?? null) : qr === null ? null : toDataUrl(qr),
      },
      adminId,
      now,
    );
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description: `UPI settings updated: ${before?.upi_id ?? '(none)'} → ${row.upi_id}`,
        actorId: adminId,
        data: {
          beforeUpiId: before?.upi_id ?? null,
          afterUpiId: row.upi_id,
          beforeHolder: before?.account_holder_name ?? null,
          afterHolder: row.account_holder_name,
          qr: qr === undefined ? 'kept' : qr === null ? 'removed' : 'replaced',
        },
      },
    });
    return { row, log };
  });
  announceAudit({ deps, rows: [log] });
  return presentUpiSettings(row);
}
