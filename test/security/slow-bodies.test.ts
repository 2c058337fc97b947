// Issue 21, item 3: 100 connections trickling a 100 kB body at 10 bytes/s all stayed open past 93 s (only Node's
// 300 s default applied). With REQUEST_TIMEOUT a request that has not fully arrived in time gets 408 and its
// connection closes, while requests that arrive whole, and open WebSockets, carry on.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, openSocket } from '../../server/src/testing/socket';
import { registration, startTestServer, type TestServer } from '../../server/src/testing/server';

const SLOW = 8;
const TIMEOUT_MS = 1000;
/** the deadline, Node's checking interval (half of it here) and slack for a loaded 2-core machine */
const CLOSED_WITHIN_MS = 5000;

interface Trickle {
  /** what the server wrote back before closing */
  reply: Promise<string>;
  socket: Socket;
}

/** A login POST announcing a 100 kB body and sending it 10 bytes every 100 ms (it would take 1,000 s). */
function trickle(port: number): Trickle {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  socket.write(
    'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Content-Length: 100000\r\n\r\n{"email":"',
  );
  const timer = setInterval(() => socket.write('aaaaaaaaaa'), 100);
  const reply = new Promise<string>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    });
    socket.on('error', () => {});
  });
  return { reply, socket };
}

describe('slow request bodies', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { REQUEST_TIMEOUT: `${TIMEOUT_MS}ms` } });
  });
  afterAll(async () => {
    await t.close();
  });

  it(
    `closes ${SLOW} trickling uploads with 408 within the bound, while normal requests and sockets carry on`,
    { timeout: 20_000 },
    async () => {
      const token = (await t.request('POST', '/api/auth/register', { body: registration('slow') })).json
        .token as string;
      const socket = await connected(openSocket(t.url, token));
      try {
        const started = Date.now();
        const slow = Array.from({ length: SLOW }, () => trickle(t.server.port));
        const closedAt = slow.map((s) => s.reply.then(() => Date.now() - started));

        // Meanwhile a request that arrives whole is served.
        const health = await t.request('GET', '/api/health');
        expect(health.status).toBe(200);

        const replies = await Promise.all(slow.map((s) => s.reply));
        for (const reply of replies) expect(reply).toMatch(/^HTTP\/1\.1 408 /);
        for (const ms of await Promise.all(closedAt)) {
          expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
          expect(ms).toBeLessThan(CLOSED_WITHIN_MS);
        }
        // The WebSocket, open for longer than the deadline, is untouched by it, and so is the server.
        expect(socket.connected).toBe(true);
        expect((await t.request('GET', '/api/auth/me', { token })).status).toBe(200);
        // A refused slow body is not an unexpected error in the log.
        expect(t.logs.filter((l) => l.includes('unexpected error'))).toEqual([]);
      } finally {
        socket.disconnect();
      }
    },
  );
});
