// UPI answers for the payment feature's tests.
import type { PaymentRequestDto, UpiPaymentInfoDto } from '@optionpilot/server/contract';

export function sampleRequest(overrides: Partial<PaymentRequestDto> = {}): PaymentRequestDto {
  return {
    id: 5,
    amount: 5898.82,
    amountPaise: 589_882,
    utrNumber: '123456789012',
    method: 'upi',
    status: 'pending',
    createdAt: '2026-03-02T05:00:00.000Z',
    approvedAt: null,
    reviewedAt: null,
    adminNotes: null,
    paymentScreenshot: null,
    plan: { code: 'monthly', name: 'Monthly', months: 1 },
    user: { id: 7, firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' },
    ...overrides,
  };
}

export function sampleUpiInfo(overrides: Partial<UpiPaymentInfoDto> = {}): UpiPaymentInfoDto {
  return {
    upi: {
      configured: true,
      upiId: 'optionpilot@okaxis',
      accountHolderName: 'OptionPilot Technologies',
      qrCodeImage: null,
      updatedAt: '2026-03-01T00:00:00.000Z',
    },
    plan: {
      code: 'monthly',
      name: 'Monthly',
      months: 1,
      pricePaise: 499_900,
      gstPaise: 89_982,
      totalPaise: 589_882,
    },
    amountPaise: 589_882,
    requests: [],
    pending: false,
    ...overrides,
  };
}
