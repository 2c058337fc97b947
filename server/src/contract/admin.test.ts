import { describe, expect, it } from 'vitest';
import {
  ADMIN_CONTROL_SCHEMA,
  activateUserSchema,
  bankDetailsSchema,
  createTestUserSchema,
  listQuerySchema,
  offerSchema,
  patchPlanSchema,
  strategySchema,
  patchUserSchema,
  reviewPaymentRequestSchema,
  upiSettingsSchema,
  upiRequestSchema,
} from './admin';

describe('ADMIN_CONTROL_SCHEMA', () => {
  it('parses stored strings into typed values', () => {
    expect(ADMIN_CONTROL_SCHEMA.tradingEnabled.parse('false')).toBe(false);
    expect(ADMIN_CONTROL_SCHEMA.stopLoss.parse('20.5')).toBe(20.5);
    expect(ADMIN_CONTROL_SCHEMA.consecutiveCandles.parse('3')).toBe(3);
    expect(ADMIN_CONTROL_SCHEMA.candleInterval.parse('5')).toBe(5);
  });

  it('refuses values out of bounds or of the wrong kind, naming the setting', () => {
    const bad: Array<[keyof typeof ADMIN_CONTROL_SCHEMA, string]> = [
      ['tradingEnabled', 'yes'],
      ['stopLoss', '0'],
      ['stopLoss', 'abc'],
      ['target', '1001'],
      ['consecutiveCandles', '2.5'],
      ['consecutiveCandles', '11'],
      ['squareOffTime', '15:45'],
      ['algoTag', 'has space'],
    ];
    for (const [name, value] of bad) {
      const result = ADMIN_CONTROL_SCHEMA[name].safeParse(value);
      expect(result.success, `${name}=${value}`).toBe(false);
      expect(result.error?.issues[0]?.message).toContain(name);
    }
  });
});

describe('request schemas', () => {
  it('defaults the page and bounds its size', () => {
    expect(listQuerySchema.parse({})).toMatchObject({ page: 1, pageSize: 25, period: 'all' });
    expect(listQuerySchema.safeParse({ pageSize: '101' }).success).toBe(false);
    expect(listQuerySchema.safeParse({ from: '2026-13-45' }).success).toBe(false);
  });

  it('replaces broker key and secret only together and refuses unknown fields', () => {
    expect(patchUserSchema.safeParse({ brokerApiKey: 'k' }).success).toBe(false);
    expect(patchUserSchema.safeParse({ brokerApiKey: 'k', brokerApiSecret: 's' }).success).toBe(true);
    expect(patchUserSchema.safeParse({ password: 'x' }).success).toBe(false);
    expect(patchUserSchema.safeParse({}).success).toBe(false);
  });

  it('needs a note to reject a payment request', () => {
    expect(reviewPaymentRequestSchema.safeParse({ status: 'rejected' }).success).toBe(false);
    expect(
      reviewPaymentRequestSchema.safeParse({ status: 'rejected', adminNotes: 'UTR not found' }).success,
    ).toBe(true);
    expect(reviewPaymentRequestSchema.safeParse({ status: 'approved' }).success).toBe(true);
  });

  it('checks the UPI id shape and the 12-digit UTR', () => {
    expect(upiSettingsSchema.safeParse({ upiId: 'shop@okicici', accountHolderName: 'A' }).success).toBe(true);
    expect(upiSettingsSchema.safeParse({ upiId: 'shop', accountHolderName: 'A' }).success).toBe(false);
    expect(upiRequestSchema.safeParse({ utrNumber: '123456789012' }).success).toBe(true);
    expect(upiRequestSchema.safeParse({ utrNumber: '12345678901' }).success).toBe(false);
  });
});

describe('admin free text', () => {
  const cases: Array<
    [string, { safeParse: (v: unknown) => { success: boolean } }, Record<string, unknown>, string]
  > = [
    ['user name', patchUserSchema, {}, 'firstName'],
    ['broker key', patchUserSchema, { brokerApiSecret: 'secret-1' }, 'brokerApiKey'],
    ['activation reason', activateUserSchema, {}, 'reason'],
    ['test user name', createTestUserSchema, {}, 'lastName'],
    ['rejection note', reviewPaymentRequestSchema, { status: 'rejected' }, 'adminNotes'],
    ['UPI holder', upiSettingsSchema, { upiId: 'shop@okaxis' }, 'accountHolderName'],
    [
      'bank name',
      bankDetailsSchema,
      { accountHolderName: 'A', accountNumber: '123456789', ifsc: 'HDFC0001234' },
      'bankName',
    ],
    ['plan name', patchPlanSchema, {}, 'name'],
    ['offer name', offerSchema, { code: 'DIWALI10' }, 'name'],
    [
      'strategy name',
      strategySchema,
      {
        description: 'd',
        sides: 'BOTH',
        parameters: {
          interval: 1,
          consecutiveCandles: 3,
          minMovement: 5,
          entryOffset: 2,
          stopLoss: 20,
          target: 40,
          maxLoss: 0,
          orderType: 'MARKET',
        },
      },
      'name',
    ],
  ];
  it.each(cases)('refuses NUL, zero-width and bidi characters in the %s', (_, schema, base, field) => {
    for (const bad of ['Asha\u0000', 'As\u200bha', '\u202eahsA']) {
      expect(schema.safeParse({ ...base, [field]: bad }).success).toBe(false);
    }
    expect(schema.safeParse({ ...base, [field]: 'Asha Rao' }).success).toBe(true);
  });
});
