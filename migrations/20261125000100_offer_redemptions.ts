import type { Knex } from 'knex';

// Offers that can be redeemed (issue 18 item 2):
// - `offers.discount_paise`: a fixed discount in paise; null means the offer takes `discount_bp` percent, and when
//   it is set `discount_bp` is not read (`offerDiscountPaise` is the one reader). A new column rather than a
//   reshaped `discount_bp`: SQLite cannot drop that column's NOT NULL and range check without rebuilding a table
//   other tables reference.
// - codes are unique case-insensitively: stored upper-case and guarded by a unique index on upper(code).
// - `payments.offer_id`: the offer a payment redeemed (set only when its use was counted), so an admin sees who
//   redeemed an offer, and `used_count` equals the payments that name it.
// - `invoices.discount_paise` / `offer_code`: the discount printed on the tax invoice (list price − discount =
//   taxable value), copied at issue like the supplier details.
export async function up(knex: Knex): Promise<void> {
  const clashes = (await knex('offers')
    .whereNotNull('code')
    .groupByRaw('upper(code)')
    .havingRaw('count(*) > 1')
    .select(knex.raw('upper(code) as code'))) as Array<{ code: string }>;
  if (clashes.length > 0) {
    throw new Error(
      `offers: codes differing only in case must be renamed before upgrading: ${clashes.map((c) => c.code).join(', ')}`,
    );
  }
  await knex('offers')
    .whereNotNull('code')
    .update({ code: knex.raw('upper(code)') });
  await knex.raw('CREATE UNIQUE INDEX offers_code_upper ON offers (upper(code))');
  // Raw DDL: both dialects take a column CHECK and a REFERENCES clause in ADD COLUMN (Knex would rebuild the
  // SQLite table for the foreign key).
  await knex.raw(
    'ALTER TABLE offers ADD COLUMN discount_paise bigint CONSTRAINT offers_discount_paise_positive CHECK (discount_paise IS NULL OR discount_paise > 0)',
  );
  await knex.raw(
    'ALTER TABLE payments ADD COLUMN offer_id integer REFERENCES offers (id) ON DELETE SET NULL',
  );
  await knex.schema.alterTable('payments', (t) => {
    t.index(['offer_id', 'paid_at']);
  });
  await knex.raw(
    'ALTER TABLE invoices ADD COLUMN discount_paise bigint NOT NULL DEFAULT 0 CONSTRAINT invoices_discount_non_negative CHECK (discount_paise >= 0)',
  );
  await knex.schema.alterTable('invoices', (t) => {
    t.string('offer_code', 40);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invoices', (t) => {
    t.dropColumn('offer_code');
    t.dropColumn('discount_paise');
  });
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex(['offer_id', 'paid_at']);
  });
  await knex.schema.alterTable('payments', (t) => {
    t.dropColumn('offer_id');
  });
  await knex.schema.alterTable('offers', (t) => {
    t.dropColumn('discount_paise');
  });
  await knex.raw('DROP INDEX offers_code_upper');
}
