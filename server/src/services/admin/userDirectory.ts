// The admin users page: one page of users matching the filters with what admins see of each, the page's summary
// counts, and the View dialog's detail. Reads only: changes live in userCommands.ts.
import type { z } from 'zod';
import type {
  AdminUserDetailDto,
  AdminUserDto,
  AdminUsersResponse,
  PaymentRequestDto,
  usersQuerySchema,
} from '../../contract';
import {
  countOf,
  findPlanById,
  listSubscriptionsForUser,
  toUser,
  type BrokerAccountRow,
  type Db,
  type PaymentRow,
  type UserRow,
} from '../../db';
import { AppError } from '../../errors';
import { priceOf } from '../../payments/pricing';
import { presentAdminUser } from '../../presenters/adminUser';
import { presentPlan } from '../../presenters/plan';
import { iso } from '../../presenters/time';
import { listRevenue } from './revenue';
import { listPaymentRequestsPage } from './paymentRequests';
import { customersOnly, testAccountIds } from './testAccounts';
import { inWindow, istMonthStart, pageOf, whereUserMatches, windowOf } from './listing';

/** What admins see beside each user, looked up for a whole page at once. */
export async function adminUsersOf(db: Db, users: readonly UserRow[]): Promise<AdminUserDto[]> {
  const ids = users.map((u) => u.id);
  if (ids.length === 0) return [];
  const brokers = new Map<number, BrokerAccountRow>();
  for (const row of (await db('broker_accounts').whereIn('user_id', ids)) as BrokerAccountRow[])
    brokers.set(Number(row.user_id), row);
  const latest = new Map<number, PaymentRow>();
  const payments = (await db('payments')
    .whereIn('user_id', ids)
    .where({ status: 'captured' })
    .orderBy([
      { column: 'paid_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])) as PaymentRow[];
  for (const p of payments) if (!latest.has(Number(p.user_id))) latest.set(Number(p.user_id), p);
  const tests = await testAccountIds(db, ids);
  return users.map((user) =>
    presentAdminUser({
      user,
      broker: brokers.get(user.id) ?? null,
      latestPayment: latest.get(user.id) ?? null,
      isTest: tests.has(user.id),
    }),
  );
}

/** `GET /api/admin/users`: filtered on the server, newest first, with the summary counts. */
export async function listAdminUsers(props: {
  db: Db;
  query: z.output<typeof usersQuerySchema>;
  now: number;
}): Promise<AdminUsersResponse> {
  const { db, query, now } = props;
  const builder = db('users').select('users.*').where('users.is_demo', false);
  // Admins are not customers: listed only on their own, where no subscription filter applies.
  void builder.where('users.is_admin', query.role === 'admins');
  whereUserMatches(builder, query.search);
  inWindow(builder, 'users.created_at', windowOf(query, now));
  switch (query.role === 'admins' ? 'all' : query.status) {
    case 'active':
      void builder
        .where('users.subscription_status', 'active')
        .where(
          (w) => void w.whereNull('users.subscription_end_at').orWhere('users.subscription_end_at', '>', now),
        );
      break;
    case 'expired':
      void builder.where((w) =>
        w
          .where('users.subscription_status', 'expired')
          .orWhere(
            (a) =>
              void a
                .where('users.subscription_status', 'active')
                .where('users.subscription_end_at', '<=', now),
          ),
      );
      break;
    case 'pending':
    case 'inactive':
      void builder.where('users.subscription_status', query.status);
      break;
    case 'all':
      break;
  }
  if (query.broker === 'none') {
    void builder.whereNotExists(
      (q) => void q.select(1).from('broker_accounts').whereRaw('broker_accounts.user_id = users.id'),
    );
  } else if (query.broker !== undefined) {
    const broker = query.broker;
    void builder.whereExists(
      (q) =>
        void q
          .select(1)
          .from('broker_accounts')
          .whereRaw('broker_accounts.user_id = users.id')
          .where('broker_accounts.broker_type', broker),
    );
  }
  const page = await pageOf({
    builder,
    page: query.page,
    pageSize: query.pageSize,
    orderBy: [
      { column: 'users.created_at', order: 'desc' },
      { column: 'users.id', order: 'desc' },
    ],
    map: toUser,
  });
  return { ...page, items: await adminUsersOf(db, page.items), summary: await userSummary(db, now) };
}

/** The users page's cards: customers only (test accounts, admins and the demo account are not counted), and the admins apart. */
export async function userSummary(db: Db, now: number): Promise<AdminUsersResponse['summary']> {
  const real = () => {
    const b = db('users');
    customersOnly(b);
    return b;
  };
  const total = countOf(await real().count({ n: '*' }));
  const active = countOf(
    await real()
      .where('subscription_status', 'active')
      .where((w) => void w.whereNull('subscription_end_at').orWhere('subscription_end_at', '>', now))
      .count({ n: '*' }),
  );
  const newThisMonth = countOf(await real().where('created_at', '>=', istMonthStart(now)).count({ n: '*' }));
  const pendingPayments = countOf(
    await db('payment_requests').where({ status: 'pending' }).count({ n: '*' }),
  );
  const admins = countOf(await db('users').where('is_admin', true).count({ n: '*' }));
  return { total, active, pendingPayments, newThisMonth, admins };
}

/** The user, or 404. */
export async function userOr404(db: Db, id: number): Promise<UserRow> {
  const row: unknown = await db('users').where({ id }).first();
  if (!row) throw new AppError('not_found', { message: `No user with id ${id}.` });
  return toUser(row);
}

/** `GET /api/admin/users/:id`: the View dialog. */
export async function adminUserDetail(props: {
  db: Db;
  id: number;
  now: number;
}): Promise<AdminUserDetailDto> {
  const { db, id, now } = props;
  const user = await userOr404(db, id);
  const [base] = await adminUsersOf(db, [user]);
  if (!base) throw new AppError('not_found');
  const periods = await listSubscriptionsForUser(db, id);
  const planIds = new Set(periods.flatMap((p) => (p.plan_id === null ? [] : [p.plan_id])));
  const plans = new Map<number, { code: string }>();
  for (const planId of planIds) {
    const plan = await findPlanById(db, planId);
    if (plan) plans.set(planId, plan);
  }
  const latestPlanId = periods[0]?.plan_id ?? null;
  const latestPlan = latestPlanId === null ? undefined : await findPlanById(db, latestPlanId);
  const revenue = await listRevenue({
    db,
    query: { page: 1, pageSize: 20, period: 'all', status: 'all', userId: id },
    now,
  });
  const requests: PaymentRequestDto[] = (
    await listPaymentRequestsPage({
      db,
      query: { page: 1, pageSize: 20, period: 'all', status: 'all' },
      userId: id,
      now,
    })
  ).items;
  return {
    ...base,
    plan: latestPlan ? presentPlan(latestPlan, priceOf(latestPlan)) : null,
    subscriptions: periods.map((p) => ({
      startsAt: iso(p.starts_at),
      endsAt: iso(p.ends_at),
      source: p.source,
      planCode: p.plan_id === null ? null : (plans.get(p.plan_id)?.code ?? null),
    })),
    payments: revenue.items,
    paymentRequests: requests,
  };
}
