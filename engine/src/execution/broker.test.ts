import { describe, expect, it } from 'vitest';
import { classifyBrokerFailure } from './broker';
import type { BrokerCodeTable } from './broker';

// A broker-specific table as an adapter would pass it (Kite's error_type values).
const KITE_CODES: BrokerCodeTable = {
  TokenException: 'auth_expired',
  PermissionException: 'ip_not_allowed',
  OrderException: 'rejected',
  NetworkException: 'network',
};

describe('classifyBrokerFailure', () => {
  it.each([
    [{ code: 'TokenException', httpStatus: 403 }, 'auth_expired'],
    [{ code: 'PermissionException', httpStatus: 403 }, 'ip_not_allowed'],
    [{ code: 'OrderException', httpStatus: 400 }, 'rejected'],
    [{ httpStatus: 429 }, 'rate_limited'],
    [{ httpStatus: 504 }, 'timeout'],
    [{ httpStatus: 500 }, 'network'],
    [{ httpStatus: 418 }, 'rejected'],
    [{ systemCode: 'ECONNRESET' }, 'network'],
    [{ systemCode: 'ETIMEDOUT' }, 'timeout'],
    [{}, 'network'],
  ] as const)('%o → %s', (failure, kind) => {
    expect(classifyBrokerFailure({ broker: 'zerodha', message: 'x', ...failure }, KITE_CODES).kind).toBe(
      kind,
    );
  });

  it('ignores the message text entirely', () => {
    const error = classifyBrokerFailure({
      broker: 'zerodha',
      httpStatus: 400,
      message: 'IP not allowed, token expired',
    });
    expect(error.kind).toBe('rejected');
    expect(error.code).toBe('400');
  });
});
