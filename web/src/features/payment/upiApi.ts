// The trader's half of UPI payment requests (issue 9): what to pay and the caller's requests, and the submission
// of a UTR with an optional screenshot (sent afterwards as the raw file body).
import type { UpiPaymentInfoDto, UpiRequestResponse } from '@optionpilot/server/contract';
import { api } from '../../api/client';
import { putFile } from '../../api/binary';

export const upiApi = {
  info: () => api.get<UpiPaymentInfoDto>('/api/payment/upi-request'),
  submit: (utrNumber: string) => api.post<UpiRequestResponse>('/api/payment/upi-request', { utrNumber }),
  uploadScreenshot: (requestId: number, file: Blob) =>
    putFile<UpiRequestResponse>(`/api/payment-requests/${requestId}/screenshot`, file),
};
