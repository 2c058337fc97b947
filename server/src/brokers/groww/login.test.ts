import { afterEach, describe, expect, it } from 'vitest';
import { startGrowwFake, type GrowwFake } from '../../../../test/fakes/groww/server';
import { totp } from '../../../../test/fakes/angelone/totp';
import { completeGrowwLogin, GROWW_LOGIN_FIELDS, growwChecksum, nextGrowwExpiry } from './login';

const ACCOUNT = { apiKey: 'key-1', apiSecret: 'secret-1', totpSecret: 'JBSWY3DPEHPK3PXP', ucc: '924189' };
const credentials = { apiKey: ACCOUNT.apiKey, apiSecret: ACCOUNT.apiSecret };

let fake: GrowwFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('Groww login', () => {
  it('checksums the secret followed by the timestamp (SHA-256, hex), as Groww documents', () => {
    // Reference value from `printf 'mysecret1719830400' | openssl dgst -sha256`.
    expect(growwChecksum('mysecret', '1719830400')).toBe(
      'cd131f24c27acd02b7a5d142536cddb8e8cc16626a45ecd6457faef7765bc5cb',
    );
  });

  it('ends sessions at the next 06:00 IST', () => {
    expect(nextGrowwExpiry(Date.parse('2026-11-24T05:59:00+05:30'))).toBe(
      Date.parse('2026-11-24T06:00:00+05:30'),
    );
    expect(nextGrowwExpiry(Date.parse('2026-11-24T09:15:00+05:30'))).toBe(
      Date.parse('2026-11-25T06:00:00+05:30'),
    );
  });

  it('asks for a TOTP that may be left empty (the approval flow)', () => {
    const [field] = GROWW_LOGIN_FIELDS;
    const pattern = new RegExp(`^(?:${field?.pattern ?? ''})$`);
    expect(pattern.test('123456')).toBe(true);
    expect(pattern.test('')).toBe(true);
    expect(pattern.test('12345')).toBe(false);
    expect(field?.kind).toBe('otp');
  });

  it('logs in by TOTP and by approval, naming the account by its UCC; the values are sent, never kept', async () => {
    fake = await startGrowwFake({ accounts: [ACCOUNT] });
    const context = { apiRoot: fake.url, now: Date.now() };
    const byTotp = await completeGrowwLogin(context, {
      credentials,
      values: { totp: totp(ACCOUNT.totpSecret) },
    });
    expect(byTotp).toMatchObject({ accountId: '924189', expiresAt: nextGrowwExpiry(context.now) });
    const byApproval = await completeGrowwLogin(context, { credentials, values: { totp: '' } });
    expect(byApproval.accountId).toBe('924189');
    expect(byApproval.accessToken).not.toBe(byTotp.accessToken);
    const token = fake.requests.filter((r) => r.path === '/v1/token/api/access');
    expect(token.map((r) => r.headers.authorization)).toEqual(['Bearer key-1', 'Bearer key-1']);
    expect(JSON.stringify(byTotp)).not.toContain(ACCOUNT.apiSecret);
  });

  it('refuses a wrong TOTP, a wrong secret and a key not approved today', async () => {
    fake = await startGrowwFake({ accounts: [ACCOUNT, { ...ACCOUNT, apiKey: 'key-2', approved: false }] });
    const context = { apiRoot: fake.url, now: Date.now() };
    const code = totp(ACCOUNT.totpSecret);
    const wrong = `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`;
    await expect(completeGrowwLogin(context, { credentials, values: { totp: wrong } })).rejects.toMatchObject(
      {
        kind: 'rejected',
      },
    );
    await expect(
      completeGrowwLogin(context, {
        credentials: { ...credentials, apiSecret: 'wrong' },
        values: { totp: '' },
      }),
    ).rejects.toMatchObject({ kind: 'rejected' });
    await expect(
      completeGrowwLogin(context, { credentials: { ...credentials, apiKey: 'key-2' }, values: { totp: '' } }),
    ).rejects.toMatchObject({ kind: 'rejected' });
  });
});
