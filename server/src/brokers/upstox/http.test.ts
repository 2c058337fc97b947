import { describe, expect, it } from 'vitest';
import { upstoxErrorCode, upstoxFailure } from './http';

describe('upstox failures', () => {
  it('reads the error code in either spelling', () => {
    expect(upstoxErrorCode({ status: 'error', errors: [{ errorCode: 'UDAPI1154' }] })).toBe('UDAPI1154');
    expect(upstoxErrorCode({ status: 'error', errors: [{ error_code: 'UDAPI10005' }] })).toBe('UDAPI10005');
    expect(upstoxErrorCode({ status: 'error', errors: [] })).toBeUndefined();
    expect(upstoxErrorCode('<html>Bad gateway</html>')).toBeUndefined();
  });

  it('classifies by Upstox code first, then HTTP status, then system code, never by message text', () => {
    const body = (code: string) => ({
      status: 'error',
      errors: [{ errorCode: code, message: 'rate limit' }],
    });
    expect(upstoxFailure({ httpStatus: 403, body: body('UDAPI1154') })).toMatchObject({
      kind: 'ip_not_allowed',
    });
    expect(upstoxFailure({ httpStatus: 401, body: body('UDAPI100050') })).toMatchObject({
      kind: 'auth_expired',
    });
    expect(upstoxFailure({ httpStatus: 400, body: body('UDAPI1119') })).toMatchObject({ kind: 'rejected' });
    expect(upstoxFailure({ httpStatus: 429 })).toMatchObject({ kind: 'rate_limited' });
    expect(upstoxFailure({ httpStatus: 502 })).toMatchObject({ kind: 'network' });
    expect(upstoxFailure({ systemCode: 'ETIMEDOUT' })).toMatchObject({ kind: 'timeout' });
    const error = upstoxFailure({ httpStatus: 400, body: body('UDAPI1158') });
    expect(error.message).not.toContain('rate limit');
    expect(error.broker).toBe('upstox');
  });
});
