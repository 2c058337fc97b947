import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualTimeScheduler } from 'rxjs';
import WebSocket, { WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import { watchSilence } from './silenceWatch';

let server: WebSocketServer;
let peers: WebSocket[];

beforeEach(async () => {
  peers = [];
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (ws) => peers.push(ws));
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
});
afterEach(async () => {
  for (const peer of peers) peer.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function connect(scheduler: VirtualTimeScheduler): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  watchSilence(ws, 1_000, scheduler);
  await new Promise<void>((resolve) => ws.once('open', () => resolve()));
  await expect.poll(() => peers.length).toBe(1);
  return ws;
}

describe('watchSilence', () => {
  it('ends a socket that stays silent, and keeps one that hears pings', async () => {
    const scheduler = new VirtualTimeScheduler();
    const ws = await connect(scheduler);
    // Virtual time moves only by running actions: one at 900 carries the clock there.
    scheduler.schedule(() => undefined, 900);
    scheduler.maxFrames = 900;
    scheduler.flush();
    expect(ws.readyState).toBe(WebSocket.OPEN);
    peers[0]?.ping();
    await new Promise<void>((resolve) => ws.once('ping', () => resolve()));
    // The ping re-armed the watch at frame 900: at 1,500 it is still inside its second.
    scheduler.maxFrames = 1_500;
    scheduler.flush();
    expect(ws.readyState).toBe(WebSocket.OPEN);
    scheduler.maxFrames = 10_000;
    scheduler.flush();
    await expect.poll(() => ws.readyState).toBe(WebSocket.CLOSED);
  });
});
