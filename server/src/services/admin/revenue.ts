// The revenue page (`GET /api/admin/payments`): money received (payments) and manual requests still pending or
// rejected, in one list sorted by time, filtered and totalled in SQL. An approved request appears once, as the
// payment its approval recorded. Test accounts are listed (flagged) but never counted in the totals.
import type { Knex } from 'knex';
import type { z } from 'zod';
import type { AdminPaymentDto, AdminPaymentsResponse, paymentsQuerySchema } from '../../contract';
import { toNumber, type Db } from '../../db';
import { presentRevenueEntry, type RevenueRow } from '../../presenters/adminPayment';
import { excludingTestAccounts, testAccountIds } from './testAccounts';
import { inWindow, pageOf, whereUserMatches, windowOf } from './listing';

export type RevenueQuery = z.output<typeof paymentsQuerySchema> & { userId?: number };

/** Both kinds of money row as one relation `rev` with the columns of RevenueRow (minus the user's). */
function revenueRelation(db: Db): Knex.QueryBuilder {
  const payments = db('payments').select(
    db.raw("'payment' as kind"),
    'payments.id as payment_id',
    'payments.payment_request_id as request_id',
    'payments.user_id as user_id',
    'payments.method as method',
    db.raw("case payments.status when 'captured' then 'approved' else payments.status end as status"),
    'payments.amount_paise as amount_paise',
    db.raw('coalesce(payments.utr, payments.provider_payment_id) as utr'),
    'payments.plan_id as plan_id',
    'payments.paid_at as at',
    db.raw(
      "(select coalesce(sum(refunds.amount_paise), 0) from refunds where refunds.payment_id = payments.id and refunds.status = 'processed') as refunded_paise",
    ),
  );
  const requests = db('payment_requests')
    .select(
      db.raw("'request' as kind"),
      db.raw('null as payment_id'),
      'payment_requests.id as request_id',
      'payment_requests.user_id as user_id',
      'payment_requests.method as method',
      'payment_requests.status as status',
      'payment_requests.amount_paise as amount_paise',
      'payment_requests.utr_number as utr',
      'payment_requests.plan_id as plan_id',
      'payment_requests.created_at as at',
      db.raw('0 as refunded_paise'),
    )
    .whereNot('payment_requests.status', 'approved');
  // Unwrapped: SQLite refuses parenthesised members of a compound select.
  return payments.unionAll(requests);
}

/** The filtered relation joined to users and plans (not yet ordered). */
function filtered(db: Db, query: RevenueQuery, now: number): Knex.QueryBuilder {
  const builder = db
    .from(revenueRelation(db).as('rev'))
    .join('users', 'users.id', 'rev.user_id')
    .leftJoin('plans', 'plans.id', 'rev.plan_id');
  if (query.status !== 'all') void builder.where('rev.status', query.status);
  if (query.method !== undefined) void builder.where('rev.method', query.method);
  if (query.userId !== undefined) void builder.where('rev.user_id', query.userId);
  whereUserMatches(builder, query.search, 'users', ['rev.utr']);
  inWindow(builder, 'rev.at', windowOf(query, now));
  return builder;
}

/** `GET /api/admin/payments` */
export async function listRevenue(props: {
  db: Db;
  query: RevenueQuery;
  now: number;
}): Promise<AdminPaymentsResponse> {
  const { db, query, now } = props;
  const builder = filtered(db, query, now).select(
    'rev.*',
    'users.first_name',
    'users.last_name',
    'users.email',
    'plans.code as plan_code',
  );
  const page = await pageOf<RevenueRow>({
    builder,
    page: query.page,
    pageSize: query.pageSize,
    orderBy: [
      { column: 'rev.at', order: 'desc' },
      { column: 'rev.kind', order: 'asc' },
      { column: 'rev.request_id', order: 'desc' },
    ],
    map: (raw) => raw as unknown as RevenueRow,
  });
  const tests = await testAccountIds(
    db,
    page.items.map((r) => Number(r.user_id)),
  );
  const paymentIds = page.items.filter((r) => r.payment_id !== null).map((r) => Number(r.payment_id));
  const refunded = new Map<number, number>();
  if (paymentIds.length > 0) {
    const rows = (await db('refunds')
      .whereIn('payment_id', paymentIds)
      .whereIn('status', ['pending', 'processed'])
      .groupBy('payment_id')
      .select('payment_id')
      .sum({ total: 'amount_paise' })) as Array<{ payment_id: number; total: unknown }>;
    for (const row of rows) refunded.set(Number(row.payment_id), toNumber(row.total));
  }
  const items: AdminPaymentDto[] = page.items.map((r) =>
    presentRevenueEntry(
      r,
      tests.has(Number(r.user_id)),
      r.payment_id === null ? 0 : (refunded.get(Number(r.payment_id)) ?? 0),
    ),
  );

  const totalsQuery = filtered(db, query, now);
  excludingTestAccounts(totalsQuery, 'rev.user_id');
  const received = "rev.kind = 'payment' and rev.status in ('approved', 'refunded')";
  const [sums] = (await totalsQuery.select(
    db.raw(`sum(case when ${received} then rev.amount_paise else 0 end) as gross`),
    db.raw(`sum(case when ${received} then rev.refunded_paise else 0 end) as refunded`),
    db.raw("sum(case when rev.status = 'pending' then rev.amount_paise else 0 end) as pending"),
    db.raw(`sum(case when ${received} then 1 else 0 end) as received_count`),
    db.raw('count(*) as n'),
  )) as Array<Record<string, unknown>>;
  const grossPaise = toNumber(sums?.gross);
  const refundedPaise = toNumber(sums?.refunded);
  const receivedCount = toNumber(sums?.received_count);
  return {
    ...page,
    items,
    totals: {
      grossPaise,
      refundedPaise,
      netPaise: grossPaise - refundedPaise,
      pendingPaise: toNumber(sums?.pending),
      count: toNumber(sums?.n),
      averagePaise: receivedCount === 0 ? 0 : Math.round(grossPaise / receivedCount),
    },
  };
}
