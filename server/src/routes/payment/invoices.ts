// /api/payment/history, /invoices and /credit-notes: the caller's payments, GST invoices, credit notes and PDFs. An admin may download any invoice; another
// user's invoice is indistinguishable from a missing one (404). Routes: auth → validate → policy → handler.
import type { Router } from '@koa/router';
import { z } from 'zod';
import type { InvoicesResponse, PaymentHistoryResponse } from '../../contract';
import type { Deps } from '../../deps';
import { findCreditNote, findInvoice, listInvoicesForUser } from '../../db';
import { AppError, validationError } from '../../errors';
import { renderCreditNotePdf, renderInvoicePdf } from '../../invoices/pdf';
import { paymentHistory } from '../../payments/history';
import { requireAuth } from '../../middleware/auth';
import { authOf, type AppState, type RouteContext } from '../../middleware/context';
import { authorize } from '../../policies';
import { canOnOwnRecord } from '../user/access';

const invoiceIdSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * The GST document of the path's `:id` when the caller may read it: its buyer or an admin. Another user's document
 * is indistinguishable from a missing one (404); a bad id is a 400.
 */
async function ownDocument<D extends { user_id: number }>(
  ctx: RouteContext,
  find: (id: number) => Promise<D | undefined>,
  what: string,
): Promise<D> {
  const parsed = invoiceIdSchema.safeParse(ctx.params);
  if (!parsed.success) throw validationError(parsed.error, 'params');
  const { user } = authOf(ctx);
  const document = await find(parsed.data.id);
  if (!document || (!user.is_admin && document.user_id !== user.id))
    throw new AppError('not_found', { message: `No such ${what}.` });
  authorize({ id: user.id, isAdmin: user.is_admin }, 'invoice:read', { ownerId: document.user_id });
  return document;
}

/**
 * Sends a PDF as a download named after the document's number (`OP/26-27/00001` → `…OP-26-27-00001.pdf`). Never
 * stored by a browser or proxy cache: it carries the buyer's name, GSTIN and address, and a shared machine's cache
 * would keep it after sign-out.
 */
function sendPdf(ctx: RouteContext, name: string, pdf: Buffer): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Type', 'application/pdf');
  ctx.set('Content-Disposition', `attachment; filename="${name.replaceAll('/', '-')}.pdf"`);
  ctx.body = pdf;
}

/** Adds the invoice routes to the payment router. */
export function addInvoiceRoutes(router: Router<AppState>, deps: Deps): void {
  router.get('/invoices', requireAuth(deps), canOnOwnRecord('invoice:read'), async (ctx) => {
    const rows = await listInvoicesForUser(deps.db.knex, authOf(ctx).user.id);
    const body: InvoicesResponse = {
      invoices: rows.map((row) => ({
        id: row.id,
        number: row.number,
        issuedAt: row.issued_at,
        description: row.description,
        taxablePaise: row.taxable_paise,
        taxPaise: row.cgst_paise + row.sgst_paise + row.igst_paise,
        totalPaise: row.total_paise,
      })),
    };
    ctx.body = body;
  });

  router.get('/history', requireAuth(deps), canOnOwnRecord('invoice:read'), async (ctx) => {
    const body: PaymentHistoryResponse = {
      payments: await paymentHistory(deps.db.knex, authOf(ctx).user.id),
    };
    ctx.body = body;
  });

  router.get('/invoices/:id/pdf', requireAuth(deps), async (ctx) => {
    const invoice = await ownDocument(ctx, (id) => findInvoice(deps.db.knex, id), 'invoice');
    sendPdf(ctx, `invoice-${invoice.number}`, await renderInvoicePdf(invoice));
  });

  router.get('/credit-notes/:id/pdf', requireAuth(deps), async (ctx) => {
    const note = await ownDocument(ctx, (id) => findCreditNote(deps.db.knex, id), 'credit note');
    const invoice = await findInvoice(deps.db.knex, note.invoice_id);
    if (!invoice) throw new Error(`credit note ${note.id} has no invoice ${note.invoice_id}`);
    sendPdf(ctx, `credit-note-${note.number}`, await renderCreditNotePdf(note, invoice));
  });
}
