// Admin views of users for the admin panel's tests.
import type { AdminUserDetailDto, AdminUserDto } from '@optionpilot/server/contract';
import { makeUser } from '../../../test/fixtures';

export function makeAdminUser(overrides: Partial<AdminUserDto> = {}): AdminUserDto {
  return {
    ...makeUser({ subscriptionStatus: 'active', brokerType: 'zerodha', brokerConnected: true }),
    isTest: false,
    disabled: false,
    broker: {
      brokerType: 'zerodha',
      apiKeyMasked: '••••ab12',
      status: 'connected',
      connected: true,
      tokenExpiresAt: '2026-03-03T00:30:00.000Z',
      lastError: null,
      session: 'connected',
      accountName: null,
      redirectUrl: '/broker/zerodha/callback',
      positionCheck: null,
    },
    paymentDetails: {
      utrNumber: '123456789012',
      paymentMethod: 'upi',
      amount: 5898.82,
      amountPaise: 589_882,
      paymentDate: '2026-03-02T05:00:00.000Z',
    },
    ...overrides,
  };
}

export function makeAdminUserDetail(overrides: Partial<AdminUserDetailDto> = {}): AdminUserDetailDto {
  return {
    ...makeAdminUser(),
    plan: {
      code: 'monthly',
      name: 'Monthly',
      months: 1,
      pricePaise: 499_900,
      gstPaise: 89_982,
      totalPaise: 589_882,
    },
    subscriptions: [],
    payments: [],
    paymentRequests: [],
    ...overrides,
  };
}
