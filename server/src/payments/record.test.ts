// recordVerifiedPayment: one payment → one payment row, one subscription period, one GST invoice with the right tax
// heads; 50 concurrent payments get consecutive invoice numbers with no gap and no duplicate.
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import { loadConfig } from '../config';
import { findPlanByCode, insertOffer, insertUser, isUniqueViolation, type Db } from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import { addMonths } from './pricing';
import { recordVerifiedPayment } from './record';

const config = loadConfig({
  OPERATOR_STATE_CODE: '29',
  OPERATOR_GSTIN: '29ABCDE1234F1Z5',
  INVOICE_PREFIX: 'OP',
});
const clock = createManualClock(Date.UTC(2026, 10, 20, 6, 0, 0));
const deps = { clock, config };

let userCount = 0;
async function newUser(db: Db, stateCode: string | null = '29') {
  userCount += 1;
  return insertUser(db, {
    email: `buyer${userCount}@example.com`,
    first_name: 'Asha',
    last_name: `Buyer${userCount}`,
    password_hash: 'x',
    state_code: stateCode,
  });
}

/** A monthly-plan Razorpay payment of the full price for `userId` under `providerPaymentId`. */
async function payMonthly(db: Db, userId: number, providerPaymentId: string) {
  const plan = (await findPlanByCode(db, 'monthly'))!;
  return db.transaction((trx) =>
    recordVerifiedPayment({
      trx,
      deps,
      userId,
      method: 'razorpay',
      amountPaise: 589_882,
      planId: plan.id,
      providerPaymentId,
      paidAt: clock.now(),
      actor: { userId, source: 'checkout' },
    }),
  );
}

describe.each(testDialects())('recordVerifiedPayment (%s)', (dialect) => {
  const db = useTestDatabase(dialect);

  it('records the payment, activates the subscription and issues a CGST+SGST invoice in-state', async () => {
    const user = await newUser(db());
    const plan = (await findPlanByCode(db(), 'monthly'))!;
    const result = await db().transaction((trx) =>
      recordVerifiedPayment({
        trx,
        deps,
        userId: user.id,
        method: 'razorpay',
        amountPaise: 589_882,
        planId: plan.id,
        providerPaymentId: 'pay_InState000001',
        paidAt: clock.now(),
        actor: { userId: user.id, source: 'checkout' },
      }),
    );
    expect(result.user).toMatchObject({
      subscription_status: 'active',
      subscription_end_at: addMonths(clock.now(), 1),
    });
    expect(result.invoice).toMatchObject({
      financial_year: '2026-27',
      place_of_supply: '29',
      recipient_name: `Asha ${user.last_name}`,
      taxable_paise: 499_900,
      cgst_rate_bp: 900,
      cgst_paise: 44_991,
      sgst_paise: 44_991,
      igst_paise: 0,
      total_paise: 589_882,
      sac: '997331',
    });
    expect(result.invoice.number).toMatch(/^OP\/26-27\/\d{5}$/);
    expect(result.log.description).toContain(result.invoice.number);
  });

  it('charges IGST to a buyer in another state and prints the B2B GSTIN', async () => {
    const user = await newUser(db(), '29');
    const plan = (await findPlanByCode(db(), 'monthly'))!;
    const { invoice } = await db().transaction((trx) =>
      recordVerifiedPayment({
        trx,
        deps,
        userId: user.id,
        method: 'upi',
        amountPaise: 589_882,
        planId: plan.id,
        utr: '123456789012',
        paidAt: clock.now(),
        actor: { userId: 1, source: 'upi_request' },
        buyer: { stateCode: '27', gstin: '27AAACB1234C1Z9', name: 'Buyer Traders LLP' },
      }),
    );
    expect(invoice).toMatchObject({
      place_of_supply: '27',
      recipient_gstin: '27AAACB1234C1Z9',
      recipient_name: 'Buyer Traders LLP',
      igst_rate_bp: 1800,
      igst_paise: 89_982,
      cgst_paise: 0,
      sgst_paise: 0,
    });
  });

  it('taxes the discounted value and claims the offer once per payment', async () => {
    const user = await newUser(db());
    const plan = (await findPlanByCode(db(), 'monthly'))!;
    const offer = await insertOffer(db(), { name: 'Ten', code: 'TEN', discount_bp: 1000, max_users: 1 });
    const pay = (n: number) =>
      db().transaction((trx) =>
        recordVerifiedPayment({
          trx,
          deps,
          userId: user.id,
          method: 'razorpay',
          // 499900 − 49990 = 449910 taxable; GST 80984 (80983.8 rounded)
          amountPaise: 530_894,
          planId: plan.id,
          offerId: offer.id,
          providerPaymentId: `pay_Offer0000000${n}`,
          paidAt: clock.now(),
          actor: { userId: user.id, source: 'checkout' },
        }),
      );
    const first = await pay(1);
    expect(first.offerClaimed).toBe(true);
    expect(first.invoice).toMatchObject({ taxable_paise: 449_910, total_paise: 530_894 });
    expect((await pay(2)).offerClaimed).toBe(false);
    expect(await db()('offers').where({ id: offer.id }).first()).toMatchObject({ used_count: 1 });
  });

  it('refuses the same provider payment twice and leaves no invoice number behind', async () => {
    const user = await newUser(db());
    const once = () => payMonthly(db(), user.id, 'pay_Twice00000001');
    const first = await once();
    const err = await once().catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    const after = await payMonthly(db(), user.id, 'pay_Twice00000002');
    const seq = (n: string) => Number(n.split('/')[2]);
    expect(seq(after.invoice.number)).toBe(seq(first.invoice.number) + 1);
  });

  it('gives 50 concurrent payments consecutive invoice numbers, no gap, no duplicate', async () => {
    const users = [];
    for (let i = 0; i < 50; i += 1) users.push(await newUser(db()));
    const results = await Promise.all(
      users.map((user, i) => payMonthly(db(), user.id, `pay_Concurrent${String(i).padStart(3, '0')}`)),
    );
    const sequences = results.map((r) => Number(r.invoice.number.split('/')[2])).sort((a, b) => a - b);
    const first = sequences[0]!;
    expect(sequences).toEqual(Array.from({ length: 50 }, (_, i) => first + i));
    const all = (await db()('invoices').select('number')) as Array<{ number: string }>;
    const numbers = all.map((r) => Number(r.number.split('/')[2])).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
  });
});
