// Manage Subscription's own calls: the payment history with its invoices and credit notes, and their PDFs (the
// subscription itself is the dashboard's call, dashboardApi.subscription).
import type { PaymentHistoryResponse } from '@optionpilot/server/contract';
import { api } from '../../api/client';
import { downloadFile } from '../../lib/download';

/** `OP/26-27/00001` → `invoice-OP-26-27-00001.pdf`, the server's own file name (`credit-note-…` for notes). */
export function invoiceFileName(number: string, kind: 'invoice' | 'credit-note' = 'invoice'): string {
  return `${kind}-${number.replaceAll('/', '-')}.pdf`;
}

export const subscriptionApi = {
  history: () => api.get<PaymentHistoryResponse>('/api/payment/history'),
  downloadInvoice: (invoice: { id: number; number: string }) =>
    downloadFile(`/api/payment/invoices/${invoice.id}/pdf`, invoiceFileName(invoice.number)),
  downloadCreditNote: (note: { id: number; number: string }) =>
    downloadFile(`/api/payment/credit-notes/${note.id}/pdf`, invoiceFileName(note.number, 'credit-note')),
};
