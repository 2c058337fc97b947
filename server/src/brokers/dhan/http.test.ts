import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DhanHttp, dhanErrorCode, dhanFailure } from './http';

describe('Dhan error codes', () => {
  it.each([
    ['DH-901', 401, 'auth_expired'],
    ['DH-904', 429, 'rate_limited'],
    ['DH-905', 400, 'rejected'],
    ['DH-906', 400, 'rejected'],
    ['DH-908', 500, 'network'],
    ['DH-911', 403, 'ip_not_allowed'],
  ] as const)('%s (HTTP %d) is %s', (code, status, kind) => {
    expect(dhanFailure({ code, httpStatus: status }).kind).toBe(kind);
  });

  it('falls back to the status without a code, and reads the code of a failure body only', () => {
    expect(dhanFailure({ httpStatus: 429 }).kind).toBe('rate_limited');
    expect(dhanFailure({ systemCode: 'ETIMEDOUT' }).kind).toBe('timeout');
    expect(dhanErrorCode('{"errorType":"Input_Exception","errorCode":"DH-905","errorMessage":"x"}')).toBe(
      'DH-905',
    );
    expect(dhanErrorCode('<html>')).toBeUndefined();
    expect(dhanErrorCode('[{"orderId":"1"}]')).toBeUndefined();
  });
});

describe('DhanHttp', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const serve = async (status: number, body: string) => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { seen, root: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };

  it('sends the token and client id, and tells the session owner when Dhan refuses the token', async () => {
    const { seen, root } = await serve(
      401,
      '{"errorType":"Invalid_Authentication","errorCode":"DH-901","errorMessage":"expired"}',
    );
    let ended = 0;
    const http = new DhanHttp({
      apiRoot: root,
      accessToken: 'tok-1',
      clientId: '1000000001',
      onAuthExpired: () => (ended += 1),
    });
    await expect(
      http.request({ method: 'GET', path: '/v2/positions', schema: z.array(z.unknown()) }),
    ).rejects.toMatchObject({
      kind: 'auth_expired',
      code: 'DH-901',
    });
    expect(ended).toBe(1);
    expect(seen[0]).toMatchObject({ 'access-token': 'tok-1', 'client-id': '1000000001' });
  });

  it('treats a success it cannot read as an unknown outcome, never as a refusal', async () => {
    const { root } = await serve(200, '<html>gateway</html>');
    const http = new DhanHttp({ apiRoot: root, accessToken: 't', clientId: '1' });
    await expect(
      http.request({ method: 'POST', path: '/v2/orders', schema: z.object({ orderId: z.string() }) }),
    ).rejects.toMatchObject({ kind: 'network', code: 'BAD_RESPONSE' });
  });
});
