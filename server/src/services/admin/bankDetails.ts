// Bank account for manual transfers (spec: "bank details", held on the page in the first version; persisted here).
// Signed-in users read it to pay by bank transfer; admins change it, audited before → after.
import type { z } from 'zod';
import type { BankDetailsDto, bankDetailsSchema } from '../../contract';
import type { Deps } from '../../deps';
import { getBankDetails, saveBankDetails, type BankDetailsRow } from '../../db';
import { isoOrNull } from '../../presenters/time';
import { announceAudit, recordAudit } from '../audit';

export function presentBankDetails(row: BankDetailsRow | undefined): BankDetailsDto {
  return {
    configured: row !== undefined,
    accountHolderName: row?.account_holder_name ?? null,
    accountNumber: row?.account_number ?? null,
    ifsc: row?.ifsc ?? null,
    bankName: row?.bank_name ?? null,
    branch: row?.branch ?? null,
    updatedAt: isoOrNull(row?.updated_at ?? null),
  };
}

export async function saveBank(props: {
  deps: Pick<Deps, 'db' | 'clock' | 'realtime'>;
  adminId: number;
  input: z.output<typeof bankDetailsSchema>;
}): Promise<BankDetailsDto> {
  const { deps, adminId, input } = props;
  const now = deps.clock.now();
  const { row, log } = await deps.db.knex.transaction(async (trx) => {
    const before = await getBankDetails(trx);
    const row = await saveBankDetails(
      trx,
      {
        account_holder_name: input.accountHolderName,
        account_number: input.accountNumber,
        ifsc: input.ifsc,
        bank_name: input.bankName,
        branch: input.branch ?? null,
      },
      adminId,
      now,
    );
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description: `Bank details updated: ${before ? `${before.bank_name} ${before.ifsc}` : '(none)'} → ${row.bank_name} ${row.ifsc}`,
        actorId: adminId,
        data: {
          before: before ? JSON.stringify(presentBankDetails(before)) : null,
          after: JSON.stringify(presentBankDetails(row)),
        },
      },
    });
    return { row, log };
  });
  announceAudit({ deps, rows: [log] });
  return presentBankDetails(row);
}
