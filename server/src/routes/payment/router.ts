// /api/payment/*: checkout orders priced by the server, the test-mode checkout, and verification that activates the
// subscription. Routes: rate limit → auth → policy → validate → one service call.
import { Router } from '@koa/router';
import type {
  CheckoutQuoteDto,
  CheckoutResult,
  CreateOrderResponse,
  VerifyPaymentResponse,
} from '../../contract';
import type { Deps } from '../../deps';
import { requireAuth } from '../../middleware/auth';
import { authOf, type AppState } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import type { PaymentGateway } from '../../payments/gateway';
import { createPaymentOrder, quoteCheckout, testCheckout, verifyPayment } from '../../payments/service';
import { handleRazorpayWebhook } from '../../payments/webhook';
import { addInvoiceRoutes } from './invoices';
import { AppError, validationError } from '../../errors';
import { canOnOwnRecord, rateLimit } from '../user/access';
import type { TradingHooks } from '../user/tradingHooks';
import {
  checkoutQuoteSchema,
  createOrderSchema,
  testCheckoutSchema,
  verifyPaymentSchema,
  webhookEventIdSchema,
} from './schema';

const MINUTE = 60_000;
/** Per user: generous for a person retrying a checkout, small enough that a script cannot flood the provider. */
export const PAYMENT_BUDGETS = {
  createOrder: { name: 'payment:create-order', limit: 20, windowMs: 15 * MINUTE },
  /** offer codes are guessable words: enough to fix a typo, too few to try a dictionary */
  quote: { name: 'payment:quote', limit: 30, windowMs: 15 * MINUTE },
  verify: { name: 'payment:verify', limit: 30, windowMs: 15 * MINUTE },
} as const;

/** Routes of the payment resource, mounted under /api/payment. */
export function paymentRouter(deps: Deps, gateway: PaymentGateway, hooks: TradingHooks): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/payment' });
  const userKey = (ctx: { state: AppState }) => String(ctx.state.auth?.user.id ?? 'anonymous');
  const onUserChanged = async (userId: number) => {
    await hooks.onUserChanged(userId);
  };

  router.post(
    '/create-order',
    requireAuth(deps),
    rateLimit(deps, PAYMENT_BUDGETS.createOrder, userKey),
    canOnOwnRecord('payment:create'),
    withBody(createOrderSchema, async (ctx, input) => {
      const { response } = await createPaymentOrder({ deps, gateway, userId: authOf(ctx).user.id, input });
      const body: CreateOrderResponse = response;
      ctx.body = body;
    }),
  );

  router.post(
    '/quote',
    requireAuth(deps),
    rateLimit(deps, PAYMENT_BUDGETS.quote, userKey),
    canOnOwnRecord('payment:create'),
    withBody(checkoutQuoteSchema, async (ctx, input) => {
      const body: CheckoutQuoteDto = await quoteCheckout(deps, input);
      ctx.body = body;
    }),
  );

  router.post(
    '/test-checkout',
    requireAuth(deps),
    canOnOwnRecord('payment:create'),
    withBody(testCheckoutSchema, async (ctx, input) => {
      const body: CheckoutResult = await testCheckout({
        deps,
        gateway,
        userId: authOf(ctx).user.id,
        orderId: input.orderId,
      });
      ctx.body = body;
    }),
  );

  router.post(
    '/verify',
    requireAuth(deps),
    rateLimit(deps, PAYMENT_BUDGETS.verify, userKey),
    canOnOwnRecord('payment:create'),
    withBody(verifyPaymentSchema, async (ctx, input) => {
      const { subscription, activated } = await verifyPayment({
        deps,
        gateway,
        userId: authOf(ctx).user.id,
        input,
        onUserChanged,
      });
      const body: VerifyPaymentResponse = {
        success: true,
        message: activated
          ? 'Payment verified. Your subscription is now active!'
          : 'This payment was already verified. Your subscription is active.',
        subscription,
      };
      ctx.body = body;
    }),
  );

  // Razorpay's servers call this: no user token; the webhook signature over the raw body is the authentication.
  // Without RAZORPAY_WEBHOOK_SECRET the route does not exist (404).
  router.post('/webhook', async (ctx) => {
    const secret = deps.config.razorpay?.webhookSecret;
    if (!secret) throw new AppError('not_found', { message: 'Webhooks are not configured.' });
    const eventId = webhookEventIdSchema.safeParse(ctx.get('X-Razorpay-Event-Id') || undefined);
    // Before any work: a delivery without its dedup key could be acted on twice, so nothing is stored for it.
    if (!eventId.success) throw validationError(eventId.error, 'X-Razorpay-Event-Id');
    const outcome = await handleRazorpayWebhook({
      deps,
      secret,
      // @koa/bodyparser keeps the body text exactly as received (UTF-8); the signature is checked over it.
      rawBody: ctx.request.rawBody ?? '',
      signature: ctx.get('X-Razorpay-Signature') || undefined,
      eventId: eventId.data,
      onUserChanged,
    });
    ctx.body = { ok: true, duplicate: outcome.duplicate };
  });

  addInvoiceRoutes(router, deps);

  return router;
}
