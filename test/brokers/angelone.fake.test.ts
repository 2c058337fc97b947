// The Angel fake's own checks, which every Angel test leans on: its TOTP is RFC 6238's (the test vectors of the RFC,
// SHA-1), and it refuses what Angel refuses from APIs since April 2026 (market orders) and an over-long ordertag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAngelFake, type AngelFake } from '../fakes/angelone/server';
import { base32Decode, hotp, totp } from '../fakes/angelone/totp';
import { ANGEL_ACCOUNT } from './angeloneHarness';

describe('the Angel fake', () => {
  it('computes TOTP as RFC 6238 does', () => {
    // RFC 6238 appendix B, SHA-1 key "12345678901234567890" (8 digits there; an authenticator shows the last 6).
    const key = Buffer.from('12345678901234567890');
    expect(hotp(key, Math.floor(59 / 30), 8)).toBe('94287082');
    expect(hotp(key, Math.floor(1_111_111_109 / 30), 8)).toBe('07081804');
    expect(hotp(key, Math.floor(2_000_000_000 / 30), 8)).toBe('69279037');
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString()).toBe('12345678901234567890');
    expect(totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000)).toBe('287082');
  });

  describe('orders', () => {
    let fake: AngelFake;
    let headers: Record<string, string>;
    const place = (body: Record<string, string>) =>
      fetch(`${fake.url}/rest/secure/angelbroking/order/v1/placeOrder`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          variety: 'NORMAL',
          tradingsymbol: 'NIFTY01DEC2624000CE',
          symboltoken: '45013',
          transactiontype: 'BUY',
          exchange: 'NFO',
          ordertype: 'LIMIT',
          producttype: 'INTRADAY',
          duration: 'DAY',
          price: '120.00',
          quantity: '65',
          ...body,
        }),
      }).then((r) => r.json() as Promise<{ status: boolean; errorcode: string }>);
    beforeAll(async () => {
      fake = await startAngelFake({ accounts: [ANGEL_ACCOUNT] });
      const { jwt } = fake.issueSession(ANGEL_ACCOUNT.clientCode);
      headers = {
        'content-type': 'application/json',
        'X-UserType': 'USER',
        'X-SourceID': 'WEB',
        'X-ClientLocalIP': '127.0.0.1',
        'X-ClientPublicIP': '127.0.0.1',
        'X-MACAddress': '02:00:00:00:00:01',
        'X-PrivateKey': ANGEL_ACCOUNT.apiKey,
        Authorization: `Bearer ${jwt}`,
      };
    });
    afterAll(() => fake.close());

    it('refuses market and IOC orders and an ordertag of 20 characters, and takes a protected limit', async () => {
      expect(await place({ ordertype: 'MARKET', price: '0' })).toMatchObject({
        status: false,
        errorcode: 'AB1007',
      });
      expect(await place({ duration: 'IOC' })).toMatchObject({ status: false });
      expect(await place({ ordertag: 'A'.repeat(20) })).toMatchObject({ status: false, errorcode: 'AB4008' });
      expect(await place({ ordertag: 'A'.repeat(19) })).toMatchObject({ status: true });
      expect(fake.book.all()).toHaveLength(1);
    });
  });
});
