// Revenue (payments and manual requests) and the review of payment requests.
import type { PaymentRequestResponse } from '../../contract';
import { paymentRequestsQuerySchema, paymentsQuerySchema, reviewPaymentRequestSchema } from '../../contract';
import { withBody } from '../../middleware/validate';
import { listPaymentRequestsPage, reviewRequest } from '../../services/admin/paymentRequests';
import { listRevenue } from '../../services/admin/revenue';
import { adminIdOf, pathId, queryOf, type AdminEnv, type AdminRouter } from './shared';

export function registerPaymentRoutes(router: AdminRouter, env: AdminEnv): void {
  const { deps } = env;

  router.get('/payments', async (ctx) => {
    ctx.body = await listRevenue({
      db: deps.db.knex,
      query: queryOf(ctx, paymentsQuerySchema),
      now: deps.clock.now(),
    });
  });

  router.get('/payment-requests', async (ctx) => {
    ctx.body = await listPaymentRequestsPage({
      db: deps.db.knex,
      query: queryOf(ctx, paymentRequestsQuerySchema),
      now: deps.clock.now(),
    });
  });

  router.patch(
    '/payment-requests/:id',
    withBody(reviewPaymentRequestSchema, async (ctx, input) => {
      const { request, changed } = await reviewRequest({
        deps,
        adminId: adminIdOf(ctx),
        id: pathId(ctx),
        input,
      });
      const body: PaymentRequestResponse = {
        success: true,
        message: !changed
          ? `This payment request was already ${request.status}.`
          : request.status === 'approved'
            ? 'Payment approved: the subscription is active.'
            : 'Payment request rejected.',
        request,
      };
      ctx.body = body;
    }),
  );
}
