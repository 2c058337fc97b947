import { describe, expect, it } from 'vitest';
import { isAppendOnlyViolation, isCheckViolation, isForeignKeyViolation, isUniqueViolation } from '../errors';
import { testDialects, useTestDatabase } from '../testing';
import type { Db } from '../knex';
import { insertUser } from './users';
import {
  getTradingSettings,
  getUserSettings,
  listBotEnabledSettings,
  saveTradingSettings,
  saveUserSettings,
} from './settings';
import {
  brokerBreakdown,
  consumeOauthState,
  createOauthState,
  disconnectBrokerAccount,
  findBrokerAccountByUser,
  saveBrokerCredentials,
  updateBrokerAccount,
} from './brokerAccounts';
import { claimOfferUse, findPlanByCode, insertOffer, listPlans } from './plans';
import {
  insertPayment,
  insertPaymentOrder,
  insertPaymentRequest,
  insertSubscription,
  listPaymentRequests,
  listPayments,
  reviewPaymentRequest,
  settlePaymentOrder,
} from './payments';
import {
  financialYearOf,
  formatInvoiceNumber,
  insertInvoice,
  nextInvoiceSequence,
  type NewInvoice,
} from './invoices';
import { recordWebhookEvent } from './webhookEvents';
import { getBankDetails, getUpiSettings, saveBankDetails, saveUpiSettings } from './receivingDetails';
import { adminControlValues, setAdminControl } from './adminControls';
import { insertStrategy, listStrategies, updateStrategy } from './strategies';
import { insertSignal, listSignals, markSignalExecuted, type NewSignal } from './signals';
import {
  closeTrade,
  insertTrade,
  listOpenTrades,
  listTrades,
  tradeStats,
  userTradeTotals,
  type NewTrade,
} from './trades';
import {
  appendOrderEvent,
  findOrderByIntentKey,
  insertOrder,
  listOpenOrders,
  listOrderEvents,
  updateOrderByClientId,
  type NewOrder,
} from './orders';

const failure = (p: Promise<unknown>) => p.then(() => undefined).catch((e: unknown) => e);
let seq = 0;
const newUser = (db: Db) =>
  insertUser(db, { email: `m${++seq}@x.in`, first_name: 'M', last_name: `U${seq}`, password_hash: 'h' });

describe.each(testDialects())('data model on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  describe('seeds', () => {
    it('has the three plans with only monthly active', async () => {
      const plans = await listPlans(db());
      expect(plans.map((p) => [p.code, p.price_paise, p.months, p.gst_rate_bp, p.active])).toEqual([
        ['monthly', 499_900, 1, 1800, true],
        ['quarterly', 1_299_900, 3, 1800, false],
        ['yearly', 4_999_900, 12, 1800, false],
      ]);
      expect((await listPlans(db(), { activeOnly: true })).map((p) => p.code)).toEqual(['monthly']);
    });

    it('has every admin control with its default', async () => {
      expect(await adminControlValues(db())).toEqual({
        tradingEnabled: 'true',
        putEnabled: 'true',
        callEnabled: 'true',
        stopLoss: '20',
        target: '40',
        minMovement: '5',
        entryOffset: '2',
        consecutiveCandles: '3',
        candleInterval: '1',
        squareOffTime: '15:15',
        maxOrdersPerSecond: '10',
        algoTag: 'OPTIONPILOT',
      });
    });

    it('has the built-in strategy and no offers', async () => {
      const [builtIn, ...others] = await listStrategies(db());
      expect(others).toEqual([]);
      expect(builtIn).toMatchObject({
        code: 'consecutive-candle-breakout',
        type: 'BOTH',
        active: true,
        built_in: true,
      });
      expect(JSON.parse(builtIn!.params)).toMatchObject({
        stopLoss: 20,
        target: 40,
        maxLoss: 5000,
        orderType: 'SLM',
      });
      expect(await db()('offers').count({ n: '*' })).toEqual([{ n: 0 }]);
    });
  });

  describe('normalisation', () => {
    it('returns booleans as booleans and big epoch-ms/paise values as exact numbers', async () => {
      const user = await newUser(db());
      const farFuture = 4_102_444_800_123; // 2100-01-01
      const bigPaise = 90_071_992_547_409; // > 2^32, < 2^53
      const trade = await insertTrade(db(), {
        ...tradeFields(user.id, null),
        expiry_at: farFuture,
        entry_price_paise: bigPaise,
      });
      const raw = await db()('trades').where({ id: trade.id }).first();
      expect(typeof raw.expiry_at).toBe('number');
      expect(trade.expiry_at).toBe(farFuture);
      expect(trade.entry_price_paise).toBe(bigPaise);
      expect(trade.paper).toBe(true);
      const settings = await getUserSettings(db(), user.id);
      for (const key of ['auto_trading', 'notify_push', 'notify_system_alerts'] as const)
        expect(settings[key]).toBe(true);
      const [{ n }] = (await db()('trades').count({ n: '*' })) as Array<{ n: unknown }>;
      expect(typeof n).toBe('number');
    });
  });

  describe('settings', () => {
    it('creates defaults on first read and saves changes', async () => {
      const user = await newUser(db());
      expect(await getUserSettings(db(), user.id, 10)).toEqual({
        user_id: user.id,
        risk_level: 'medium',
        max_daily_loss_paise: 500_000,
        trading_start: '09:15',
        trading_end: '15:30',
        auto_trading: true,
        notify_push: true,
        notify_trade_execution: true,
        notify_pnl_updates: true,
        notify_system_alerts: true,
        updated_at: 10,
      });
      const saved = await saveUserSettings(db(), user.id, { risk_level: 'low', notify_push: false }, 20);
      expect(saved).toMatchObject({
        risk_level: 'low',
        notify_push: false,
        auto_trading: true,
        updated_at: 20,
      });

      expect(await getTradingSettings(db(), user.id)).toMatchObject({
        bot_enabled: false,
        order_type: 'SLM',
        target_points: 40,
        trade_quantity: 1,
        mode: 'paper',
      });
      await saveTradingSettings(db(), user.id, { bot_enabled: true, target_points: 25, trade_quantity: 3 });
      expect((await listBotEnabledSettings(db())).map((s) => s.user_id)).toContain(user.id);
    });

    it('refuses out-of-range values and a settings row for a missing user', async () => {
      const user = await newUser(db());
      expect(isCheckViolation(await failure(saveTradingSettings(db(), user.id, { target_points: 45 })))).toBe(
        true,
      );
      expect(
        isCheckViolation(await failure(saveTradingSettings(db(), user.id, { trade_quantity: 11 }))),
      ).toBe(true);
      expect(
        isCheckViolation(
          await failure(saveUserSettings(db(), user.id, { trading_start: '15:00', trading_end: '09:15' })),
        ),
      ).toBe(true);
      expect(isForeignKeyViolation(await failure(getUserSettings(db(), 999_999)))).toBe(true);
    });
  });

  describe('broker accounts', () => {
    it('keeps one account per user; new credentials reset the session', async () => {
      const user = await newUser(db());
      const creds = {
        broker_type: 'zerodha' as const,
        api_key_enc: 'v1:a',
        api_secret_enc: 'v1:b',
        api_key_last4: 'abcd',
      };
      await saveBrokerCredentials(db(), user.id, creds, 1);
      await updateBrokerAccount(db(), user.id, {
        status: 'connected',
        access_token_enc: 'v1:t',
        connected_at: 2,
      });
      const replaced = await saveBrokerCredentials(db(), user.id, { ...creds, broker_type: 'fyers' }, 3);
      expect(replaced).toMatchObject({
        broker_type: 'fyers',
        status: 'credentials_saved',
        access_token_enc: null,
        created_at: 1,
        updated_at: 3,
      });
      expect(await db()('broker_accounts').where({ user_id: user.id }).count({ n: '*' })).toEqual([{ n: 1 }]);
      await updateBrokerAccount(db(), user.id, { status: 'connected', access_token_enc: 'v1:t' });
      const breakdown = await brokerBreakdown(db());
      expect(breakdown.find((b) => b.broker_type === 'fyers')).toMatchObject({ accounts: 1, connected: 1 });
      expect(await disconnectBrokerAccount(db(), user.id, 'admin')).toBe(true);
      expect(await findBrokerAccountByUser(db(), user.id)).toMatchObject({
        status: 'disconnected',
        access_token_enc: null,
        api_key_enc: 'v1:a',
      });
      expect(
        isCheckViolation(
          await failure(saveBrokerCredentials(db(), user.id, { ...creds, broker_type: 'grow' as 'groww' })),
        ),
      ).toBe(true);
    });

    it('consumes an OAuth state once and only before it expires', async () => {
      const user = await newUser(db());
      await createOauthState(
        db(),
        { state: `s-${user.id}`, user_id: user.id, broker_type: 'zerodha', expires_at: 100 },
        0,
      );
      await createOauthState(
        db(),
        { state: `x-${user.id}`, user_id: user.id, broker_type: 'zerodha', expires_at: 100 },
        0,
      );
      expect(await consumeOauthState(db(), `s-${user.id}`, 50)).toMatchObject({
        user_id: user.id,
        used_at: 50,
      });
      expect(await consumeOauthState(db(), `s-${user.id}`, 60)).toBeUndefined();
      expect(await consumeOauthState(db(), `x-${user.id}`, 100)).toBeUndefined();
    });
  });

  describe('offers', () => {
    it('defaults to 10% and 50 users, and stops at max_users', async () => {
      const offer = await insertOffer(db(), { name: 'Launch', max_users: 2 });
      expect(offer).toMatchObject({ discount_bp: 1000, used_count: 0, active: true });
      expect((await insertOffer(db(), { name: 'Default' })).max_users).toBe(50);
      expect(await claimOfferUse(db(), offer.id)).toBe(true);
      expect(await claimOfferUse(db(), offer.id)).toBe(true);
      expect(await claimOfferUse(db(), offer.id)).toBe(false);
      const expired = await insertOffer(db(), { name: 'Old', valid_until_at: 1000 });
      expect(await claimOfferUse(db(), expired.id, 2000)).toBe(false);
    });
  });

  describe('payments', () => {
    it('settles a payment order once and keeps provider ids unique', async () => {
      const user = await newUser(db());
      const plan = (await findPlanByCode(db(), 'monthly'))!;
      const order = await insertPaymentOrder(db(), {
        user_id: user.id,
        provider: 'test',
        provider_order_id: `order_${user.id}`,
        plan_id: plan.id,
        offer_id: null,
        base_paise: 499_900,
        discount_paise: 0,
        gst_paise: 89_982,
        amount_paise: 589_882,
        receipt: `rcpt_${user.id}`,
      });
      expect(order).toMatchObject({ status: 'created', currency: 'INR', amount_paise: 589_882 });
      expect(await settlePaymentOrder(db(), order.id, 'paid', 5)).toMatchObject({
        status: 'paid',
        paid_at: 5,
      });
      expect(await settlePaymentOrder(db(), order.id, 'paid', 6)).toBeUndefined();

      const payment = await insertPayment(db(), {
        user_id: user.id,
        method: 'test',
        payment_order_id: order.id,
        provider_payment_id: `pay_${user.id}`,
        amount_paise: 589_882,
        paid_at: 5,
      });
      expect(payment.status).toBe('captured');
      const again = await failure(
        insertPayment(db(), {
          user_id: user.id,
          method: 'test',
          provider_payment_id: `pay_${user.id}`,
          amount_paise: 1,
          paid_at: 5,
        }),
      );
      expect(isUniqueViolation(again)).toBe(true);
      expect((await listPayments(db(), { userId: user.id })).map((p) => p.id)).toEqual([payment.id]);

      await insertSubscription(db(), {
        user_id: user.id,
        plan_id: plan.id,
        starts_at: 5,
        ends_at: 10,
        payment_id: payment.id,
      });
      const twice = await failure(
        insertSubscription(db(), { user_id: user.id, starts_at: 10, ends_at: 20, payment_id: payment.id }),
      );
      expect(isUniqueViolation(twice)).toBe(true);
    });

    it('refuses an order whose amount is not base − discount + GST', async () => {
      const user = await newUser(db());
      const plan = (await findPlanByCode(db(), 'monthly'))!;
      const err = await failure(
        insertPaymentOrder(db(), {
          user_id: user.id,
          provider: 'razorpay',
          provider_order_id: `bad_${user.id}`,
          plan_id: plan.id,
          offer_id: null,
          base_paise: 499_900,
          discount_paise: 0,
          gst_paise: 89_982,
          amount_paise: 5899,
          receipt: `bad_${user.id}`,
        }),
      );
      expect(isCheckViolation(err)).toBe(true);
    });

    it('takes a UTR once and reviews a request once', async () => {
      const user = await newUser(db());
      const utr = String(100_000_000_000 + user.id);
      const request = await insertPaymentRequest(db(), {
        user_id: user.id,
        utr_number: utr,
        amount_paise: 589_882,
      });
      expect(request.status).toBe('pending');
      expect(
        isUniqueViolation(
          await failure(insertPaymentRequest(db(), { user_id: user.id, utr_number: utr, amount_paise: 1 })),
        ),
      ).toBe(true);
      const admin = await newUser(db());
      const approved = await reviewPaymentRequest(
        db(),
        request.id,
        { status: 'approved', reviewedBy: admin.id, adminNotes: 'ok' },
        7,
      );
      expect(approved).toMatchObject({
        status: 'approved',
        approved_at: 7,
        reviewed_by: admin.id,
        admin_notes: 'ok',
      });
      expect(
        await reviewPaymentRequest(db(), request.id, { status: 'rejected', reviewedBy: admin.id }),
      ).toBeUndefined();
      expect(
        (await listPaymentRequests(db(), { status: 'approved', userId: user.id })).map((r) => r.id),
      ).toEqual([request.id]);
    });
  });

  describe('invoices', () => {
    it('computes the IST financial year', () => {
      expect(financialYearOf(Date.parse('2026-03-31T18:29:59Z'))).toBe('2025-26'); // 23:59:59 IST 31 Mar
      expect(financialYearOf(Date.parse('2026-03-31T18:30:00Z'))).toBe('2026-27'); // 00:00 IST 1 Apr
      expect(financialYearOf(Date.parse('2099-12-31T00:00:00Z'))).toBe('2099-00');
      expect(formatInvoiceNumber('OP', '2026-27', 42)).toBe('OP/26-27/00042');
      expect(() => formatInvoiceNumber('OPTIONPILOT', '2026-27', 1)).toThrow(/16/);
    });

    it('numbers invoices per financial year and enforces the GST invariants', async () => {
      expect(await nextInvoiceSequence(db(), '2026-27')).toBe(1);
      expect(await nextInvoiceSequence(db(), '2026-27')).toBe(2);
      expect(await nextInvoiceSequence(db(), '2027-28')).toBe(1);
      const results = await Promise.all([1, 2, 3].map(() => nextInvoiceSequence(db(), '2028-29')));
      expect([...results].sort()).toEqual([1, 2, 3]);

      const user = await newUser(db());
      const payment = await insertPayment(db(), {
        user_id: user.id,
        method: 'test',
        amount_paise: 589_882,
        paid_at: 1,
      });
      const base: NewInvoice = {
        financial_year: '2026-27',
        number: formatInvoiceNumber('OP', '2026-27', 1),
        user_id: user.id,
        payment_id: payment.id,
        subscription_id: null,
        issued_at: 1,
        description: 'OptionPilot Professional Monthly',
        place_of_supply: '27',
        recipient_name: 'M U',
        recipient_email: user.email,
        recipient_state_code: '27',
        recipient_gstin: null,
        taxable_paise: 499_900,
        cgst_rate_bp: 900,
        cgst_paise: 44_991,
        sgst_rate_bp: 900,
        sgst_paise: 44_991,
        igst_rate_bp: 0,
        igst_paise: 0,
        total_paise: 589_882,
        supplier_json: JSON.stringify({ name: 'Operator', gstin: '27AAAAA0000A1Z5' }),
      };
      const invoice = await insertInvoice(db(), base);
      expect(invoice.sac).toBe('997331');
      const other = await insertPayment(db(), {
        user_id: user.id,
        method: 'test',
        amount_paise: 1,
        paid_at: 1,
      });
      expect(isUniqueViolation(await failure(insertInvoice(db(), { ...base, payment_id: other.id })))).toBe(
        true,
      );
      expect(isUniqueViolation(await failure(insertInvoice(db(), base)))).toBe(true);
      const next = { ...base, payment_id: other.id, number: 'OP/26-27/00002' };
      expect(isCheckViolation(await failure(insertInvoice(db(), { ...next, total_paise: 1 })))).toBe(true);
      expect(
        isCheckViolation(
          await failure(insertInvoice(db(), { ...next, igst_paise: 1, total_paise: 589_883 })),
        ),
      ).toBe(true);
      expect(await failure(insertInvoice(db(), { ...next, number: 'OP/2026-27/000002' }))).toBeDefined();
    });
  });

  describe('webhooks and receiving details', () => {
    it('records a webhook event once', async () => {
      const event = {
        provider: 'razorpay',
        event_id: 'evt_1',
        event_type: 'payment.captured',
        payload: '{}',
      };
      const first = await recordWebhookEvent(db(), event, 1);
      const second = await recordWebhookEvent(db(), event, 2);
      expect(first.duplicate).toBe(false);
      expect(second).toEqual({ event: first.event, duplicate: true });
    });

    it('keeps UPI settings and bank details as single rows', async () => {
      expect(await getUpiSettings(db())).toBeUndefined();
      await saveUpiSettings(
        db(),
        { upi_id: 'op@upi', account_holder_name: 'OP', qr_code_image: null },
        null,
        1,
      );
      const saved = await saveUpiSettings(
        db(),
        { upi_id: 'new@upi', account_holder_name: 'OP', qr_code_image: 'data:,' },
        null,
        2,
      );
      expect(saved).toMatchObject({ id: 1, upi_id: 'new@upi', updated_at: 2 });
      expect(await db()('upi_settings').count({ n: '*' })).toEqual([{ n: 1 }]);
      await saveBankDetails(
        db(),
        {
          account_holder_name: 'OP',
          account_number: '1234',
          ifsc: 'HDFC0000001',
          bank_name: 'HDFC',
          branch: null,
        },
        null,
      );
      expect((await getBankDetails(db()))?.ifsc).toBe('HDFC0000001');
      expect(
        isCheckViolation(
          await failure(
            db()('bank_details').insert({
              id: 2,
              account_holder_name: 'x',
              account_number: '1',
              ifsc: 'x',
              bank_name: 'x',
              updated_at: 1,
            }),
          ),
        ),
      ).toBe(true);
    });
  });

  describe('controls and strategies', () => {
    it('updates a control and records who changed it', async () => {
      const admin = await newUser(db());
      const row = await setAdminControl(db(), 'tradingEnabled', 'false', admin.id, 9);
      expect(row).toEqual({
        setting_name: 'tradingEnabled',
        value: 'false',
        updated_at: 9,
        updated_by: admin.id,
      });
      expect((await adminControlValues(db())).tradingEnabled).toBe('false');
      await setAdminControl(db(), 'tradingEnabled', 'true', null);
    });

    it('adds and edits strategies with JSON params', async () => {
      const s = await insertStrategy(db(), {
        code: 'pe-only',
        name: 'PE only',
        description: 'd',
        type: 'PE',
        params: { stopLoss: 15 },
      });
      expect(s).toMatchObject({ built_in: false, active: true, type: 'PE' });
      const edited = await updateStrategy(db(), s.id, { active: false, params: { stopLoss: 10 } });
      expect(edited?.active).toBe(false);
      expect(JSON.parse(edited!.params)).toEqual({ stopLoss: 10 });
      expect(
        isUniqueViolation(
          await failure(insertStrategy(db(), { code: 'pe-only', name: 'x', description: 'y' })),
        ),
      ).toBe(true);
    });
  });

  describe('signals, trades and orders', () => {
    it('records a setup once and executes it once', async () => {
      const signal = signalFields(1_000_000);
      const first = await insertSignal(db(), signal);
      const again = await insertSignal(db(), { ...signal, condition_met: 'replayed' });
      expect(again).toEqual({ signal: first.signal, duplicate: true });
      expect(first.signal.executed).toBe(false);
      expect(await markSignalExecuted(db(), first.signal.id, 1_060_000, 2_450_050)).toMatchObject({
        executed: true,
        executed_price_x100: 2_450_050,
      });
      expect(await markSignalExecuted(db(), first.signal.id, 1_070_000, 1)).toBeUndefined();
      expect((await listSignals(db(), { since: 1_000_000, until: 1_000_001 })).map((s) => s.id)).toEqual([
        first.signal.id,
      ]);
    });

    it('opens one trade per user per signal, closes it once and sums stats', async () => {
      const user = await newUser(db());
      const { signal } = await insertSignal(db(), signalFields(2_000_000));
      const trade = await insertTrade(db(), tradeFields(user.id, signal.id));
      expect(isUniqueViolation(await failure(insertTrade(db(), tradeFields(user.id, signal.id))))).toBe(true);
      expect((await listOpenTrades(db(), user.id)).map((x) => x.id)).toEqual([trade.id]);
      const closed = await closeTrade(db(), trade.id, {
        exit_price_paise: 14_000,
        pnl_paise: 260_000,
        charges_paise: 6_000,
        exit_reason: 'target',
        closed_at: 2_500_000,
      });
      expect(closed).toMatchObject({ status: 'closed', pnl_paise: 260_000 });
      expect(
        await closeTrade(db(), trade.id, {
          exit_price_paise: 1,
          pnl_paise: 1,
          charges_paise: 0,
          exit_reason: 'x',
          closed_at: 1,
        }),
      ).toBeUndefined();
      const loser = await insertTrade(db(), { ...tradeFields(user.id, null), opened_at: 2_600_000 });
      await closeTrade(db(), loser.id, {
        exit_price_paise: 8_000,
        pnl_paise: -130_000,
        charges_paise: 6_000,
        exit_reason: 'stop_loss',
        closed_at: 2_700_000,
      });
      expect(await tradeStats(db(), { userId: user.id })).toEqual({
        closedTrades: 2,
        wins: 1,
        pnlPaise: 130_000,
      });
      expect(await tradeStats(db(), { userId: user.id, since: 2_600_000 })).toEqual({
        closedTrades: 1,
        wins: 0,
        pnlPaise: -130_000,
      });
      // The one-query totals agree with the two separate aggregates at every day boundary, and count no one else.
      for (const dayStart of [0, 2_600_000, 2_700_000, 2_700_001]) {
        expect(await userTradeTotals(db(), user.id, dayStart)).toEqual({
          all: await tradeStats(db(), { userId: user.id }),
          today: await tradeStats(db(), { userId: user.id, since: dayStart }),
        });
      }
      expect((await userTradeTotals(db(), user.id, 2_700_001)).today).toEqual({
        closedTrades: 0,
        wins: 0,
        pnlPaise: 0,
      });
      const nobody = await newUser(db());
      expect(await userTradeTotals(db(), nobody.id, 0)).toEqual({
        all: { closedTrades: 0, wins: 0, pnlPaise: 0 },
        today: { closedTrades: 0, wins: 0, pnlPaise: 0 },
      });
      expect((await listTrades(db(), { userId: user.id })).map((x) => x.id)).toEqual([loser.id, trade.id]);
      expect(await listOpenTrades(db(), user.id)).toEqual([]);
    });

    it('keeps entry orders idempotent and the order audit trail append-only', async () => {
      const user = await newUser(db());
      const { signal } = await insertSignal(db(), signalFields(3_000_000));
      const order = await insertOrder(db(), orderFields(user.id, signal.id, 'a'));
      expect(order).toMatchObject({
        status: 'INITIALIZED',
        filled_quantity: 0,
        fill_ids: '[]',
        late_fill: false,
        product: 'MIS',
      });
      // same signal/user/purpose/leg under another intent key, and same intent key: both refused
      expect(isUniqueViolation(await failure(insertOrder(db(), orderFields(user.id, signal.id, 'b'))))).toBe(
        true,
      );
      expect(
        isUniqueViolation(
          await failure(
            insertOrder(db(), { ...orderFields(user.id, null, 'c'), intent_key: order.intent_key }),
          ),
        ),
      ).toBe(true);
      expect((await findOrderByIntentKey(db(), order.intent_key))?.id).toBe(order.id);
      expect((await listOpenOrders(db(), user.id)).map((o) => o.id)).toEqual([order.id]);
      await updateOrderByClientId(db(), order.client_order_id, {
        status: 'FILLED',
        filled_quantity: 65,
        average_price_paise: 12_000,
      });
      expect(await listOpenOrders(db(), user.id)).toEqual([]);
      expect(
        isCheckViolation(
          await failure(updateOrderByClientId(db(), order.client_order_id, { filled_quantity: 66 })),
        ),
      ).toBe(true);

      const event = await appendOrderEvent(db(), {
        order_id: order.id,
        at: 1,
        event_type: 'SUBMIT',
        from_status: 'INITIALIZED',
        to_status: 'SUBMITTED',
        data: { a: 1 },
      });
      expect((await listOrderEvents(db(), order.id)).map((e) => e.id)).toEqual([event.id]);
      expect(
        isAppendOnlyViolation(
          await failure(db()('order_events').where({ id: event.id }).update({ event_type: 'X' })),
        ),
      ).toBe(true);
      expect(
        isAppendOnlyViolation(await failure(db()('order_events').where({ id: event.id }).delete())),
      ).toBe(true);
    });

    it('refuses to delete a user who has trading history', async () => {
      const user = await newUser(db());
      await insertTrade(db(), tradeFields(user.id, null));
      expect(isForeignKeyViolation(await failure(db()('users').where({ id: user.id }).delete()))).toBe(true);
    });
  });
});

function signalFields(at: number): NewSignal {
  return {
    strategy_id: 1,
    signal_at: at,
    type: 'CALL',
    condition_met: '3 bullish candles ≥ 5 pts',
    entry_trigger_x100: 2_450_000,
    nifty_price_x100: 2_449_525,
    setup_candle_at: at - 60_000,
    expires_at: at + 60_000,
    interval_minutes: 1,
  };
}

function tradeFields(userId: number, signalId: number | null): NewTrade {
  return {
    user_id: userId,
    signal_id: signalId,
    symbol: 'NIFTY06JAN2624400CE',
    instrument: 'NIFTY',
    trade_type: 'CALL',
    option_type: 'CE',
    strike_x100: 2_440_000,
    expiry_at: 1_767_693_600_000,
    lots: 1,
    quantity: 65,
    entry_price_paise: 10_000,
    stop_loss_paise: 8_000,
    target_paise: 14_000,
    paper: true,
    risk_state: null,
    opened_at: 2_000_000,
  };
}

function orderFields(userId: number, signalId: number | null, suffix: string): NewOrder {
  return {
    client_order_id: `OP${userId}${suffix}`,
    intent_key: `${signalId}:${userId}#${suffix}`,
    user_id: userId,
    trade_id: null,
    signal_id: signalId,
    broker: 'paper',
    symbol: 'NIFTY06JAN2624400CE',
    side: 'BUY',
    order_type: 'SL',
    quantity: 65,
    price_paise: 10_500,
    trigger_price_paise: 10_000,
    tag: 'OPTIONPILOT',
    purpose: 'entry',
    sequence: 0,
    leg: 0,
  };
}
