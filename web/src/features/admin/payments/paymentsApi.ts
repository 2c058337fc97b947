// Calls of the Payments and Revenue pages (spec §7): UPI settings, payment-request review, refunds.
import type {
  PaymentRequestResponse,
  RefundPaymentRequest,
  RefundResponse,
  UpiSettingsDto,
  UpiSettingsResponse,
} from '@optionpilot/server/contract';
import { api } from '../../../api/client';
import { putFile } from '../../../api/binary';

export interface ReviewBody {
  status: 'approved' | 'rejected';
  adminNotes?: string;
}

export const paymentsApi = {
  upiSettings: () => api.get<UpiSettingsDto>('/api/upi-settings'),
  saveUpiSettings: (body: { upiId: string; accountHolderName: string }) =>
    api.post<UpiSettingsResponse>('/api/upi-settings', body),
  /** the raw image as the body: the server checks its bytes and keeps its detected type */
  uploadQr: (file: Blob) => putFile<UpiSettingsResponse>('/api/upi-settings/qr', file),
  review: (id: number, body: ReviewBody) =>
    api.patch<PaymentRequestResponse>(`/api/admin/payment-requests/${id}`, body),
  refund: (paymentId: number, body: RefundPaymentRequest) =>
    api.post<RefundResponse>(`/api/admin/payments/${paymentId}/refund`, body),
};
