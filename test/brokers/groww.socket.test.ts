// The Groww fake's socket checks what Groww's does: a CONNECT must carry a JWT from the socket-token call and the
// INFO nonce signed by the nkey that JWT was issued for; anything else is an authorization violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { GrowwHttp } from '../../server/src/brokers/groww/http';
import { connectFrame, NatsParser, type NatsOp } from '../../server/src/brokers/groww/nats';
import { UserNkey } from '../../server/src/brokers/groww/nkey';
import { createSocketCredentials, growwSocketTokenSchema } from '../../server/src/brokers/groww/socket';
import { startGrowwFake, type GrowwFake } from '../fakes/groww/server';
import { GROWW_ACCOUNT } from './growwHarness';

let fake: GrowwFake;
beforeAll(async () => {
  fake = await startGrowwFake({ accounts: [GROWW_ACCOUNT] });
});
afterAll(() => fake.close());

/** Connects, answers INFO with `connect(nonce)` then PING, and collects what the server says until it closes. */
function session(connect: (nonce: string) => string): Promise<NatsOp['op'][]> {
  return new Promise((resolve) => {
    const ws = new WebSocket(fake.endpoints.wsRoot);
    const parser = new NatsParser();
    const seen: NatsOp['op'][] = [];
    ws.on('message', (data: Buffer) => {
      for (const op of parser.push(data)) {
        seen.push(op.op);
        if (op.op === 'INFO') ws.send(`${connect(String(op.info.nonce))}PING\r\n`);
        if (op.op === 'PONG') ws.close();
      }
    });
    ws.on('close', () => resolve(seen));
  });
}

describe('Groww fake socket sign-in', () => {
  it('accepts the nonce signed by the key the JWT was issued for, and refuses another key or an unknown JWT', async () => {
    const http = new GrowwHttp({ apiRoot: fake.url, bearer: fake.issueToken(GROWW_ACCOUNT.apiKey) });
    const credentials = await createSocketCredentials(http);
    expect(credentials.subscriptionId).not.toBe('');
    expect(
      await session((nonce) => connectFrame({ jwt: credentials.jwt, sig: credentials.nkey.sign(nonce) })),
    ).toEqual(['INFO', 'PONG']);
    const stranger = UserNkey.create();
    expect(
      await session((nonce) => connectFrame({ jwt: credentials.jwt, sig: stranger.sign(nonce) })),
    ).toEqual(['INFO', 'ERR']);
    expect(
      await session((nonce) => connectFrame({ jwt: 'forged', sig: credentials.nkey.sign(nonce) })),
    ).toEqual(['INFO', 'ERR']);
  });

  it('refuses a socket token for a key that is not a user nkey', async () => {
    const http = new GrowwHttp({ apiRoot: fake.url, bearer: fake.issueToken(GROWW_ACCOUNT.apiKey) });
    await expect(
      http.request({
        method: 'POST',
        path: '/v1/api/apex/v1/socket/token/create/',
        body: { socketKey: 'not-a-key' },
        schema: growwSocketTokenSchema,
      }),
    ).rejects.toMatchObject({ kind: 'rejected' });
  });
});
