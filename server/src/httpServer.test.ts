import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createBoundedServer, isLoopback } from './httpServer';
import { createLogger } from './logger';

const servers: Array<{ close(): void; closeAllConnections(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A bounded server answering 200 "ok", its port, and its captured log lines. */
async function start(maxConnectionsPerIp: number, exemptLoopback: boolean) {
  const logs: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logs.push(chunk.toString());
        callback();
      },
    }),
  });
  const server = createBoundedServer(
    (_req, res) => res.end('ok'),
    { requestTimeoutMs: 30_000, maxConnectionsPerIp },
    logger,
    // The tests' clients are all on loopback, which production exempts; here the cap must see them.
    exemptLoopback ? undefined : () => false,
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, logs };
}

/** Opens a connection; resolves whether the server still holds it open after a request round trip. */
async function openAndAsk(port: number): Promise<{ socket: Socket; answered: boolean }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  const answer = new Promise<boolean>((resolve) => {
    socket.once('data', () => resolve(true));
    socket.once('close', () => resolve(false));
  });
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  return { socket, answered: await answer };
}

describe('connections per address', () => {
  it('closes connections beyond the cap at once, accepts again when one closes, and logs it once', async () => {
    const { port, logs } = await start(3, false);
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await openAndAsk(port));
    expect(held.map((h) => h.answered)).toEqual([true, true, true]);
    expect((await openAndAsk(port)).answered).toBe(false);
    expect((await openAndAsk(port)).answered).toBe(false);
    expect(logs.filter((l) => l.includes('connections per address capped'))).toHaveLength(1);

    held[0]!.socket.destroy();
    await once(held[0]!.socket, 'close');
    // the server sees the close a moment after the client
    let again = await openAndAsk(port);
    for (let tries = 0; !again.answered && tries < 20; tries++) again = await openAndAsk(port);
    expect(again.answered).toBe(true);
    for (const h of [...held, again]) h.socket.destroy();
  });

  it('never caps loopback by default, nor anyone with a cap of 0', async () => {
    for (const [cap, exemptLoopback] of [
      [2, true],
      [0, false],
    ] as const) {
      const { port } = await start(cap, exemptLoopback);
      const held = [];
      for (let i = 0; i < 5; i++) held.push(await openAndAsk(port));
      expect(held.every((h) => h.answered)).toBe(true);
      for (const h of held) h.socket.destroy();
    }
  });

  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['2001:db8::1', false],
  ])('isLoopback(%s) = %s', (address, loopback) => {
    expect(isLoopback(address)).toBe(loopback);
  });
});
