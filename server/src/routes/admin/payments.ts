// Revenue (payments and manual requests; by month with GST; the GST register CSV), the review of payment requests
// and refunds of payments.
import type { PaymentRequestResponse, RefundResponse } from '../../contract';
import {
  paymentRequestsQuerySchema,
  paymentsQuerySchema,
  refundPaymentSchema,
  revenueRangeQuerySchema,
  reviewPaymentRequestSchema,
} from '../../contract';
import { withBody } from '../../middleware/validate';
import { refundPayment } from '../../payments/refunds';
import { presentRefund } from '../../presenters/refund';
import { listPaymentRequestsPage, reviewRequest } from '../../services/admin/paymentRequests';
import { listRevenue } from '../../services/admin/revenue';
import {
  gstRegisterCsv,
  gstRegisterRows,
  monthsOf,
  revenueSummary,
} from '../../services/admin/revenueSummary';
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

  router.get('/revenue/summary', async (ctx) => {
    ctx.body = await revenueSummary({
      db: deps.db.knex,
      range: queryOf(ctx, revenueRangeQuerySchema),
      now: deps.clock.now(),
    });
  });

  router.get('/revenue/gst-register.csv', async (ctx) => {
    const months = monthsOf(queryOf(ctx, revenueRangeQuerySchema), deps.clock.now());
    const csv = gstRegisterCsv(await gstRegisterRows(deps.db.knex, months));
    const name = `gst-register-${months[0]?.key ?? ''}-to-${months[months.length - 1]?.key ?? ''}.csv`;
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = csv;
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

  router.post(
    '/payments/:id/refund',
    withBody(refundPaymentSchema, async (ctx, input) => {
      const paymentId = pathId(ctx);
      const { refund, creditNote } = await refundPayment({
        deps,
        gateway: env.paymentGateway,
        adminId: adminIdOf(ctx),
        paymentId,
        input,
      });
      const body: RefundResponse = {
        success: true,
        message: creditNote
          ? `Refund recorded; credit note ${creditNote.number} issued.`
          : 'Refund recorded.',
        refund: presentRefund(refund),
        creditNote: creditNote ? { id: creditNote.id, number: creditNote.number } : null,
      };
      ctx.body = body;
    }),
  );
}
