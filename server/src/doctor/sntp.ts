// A minimal SNTP client (RFC 4330, NTP v4 packet): one 48-byte request over UDP, the server's receive and transmit
// timestamps back, and the clock offset computed as NTP does, so the network's round trip cancels out:
//   offset = ((T2 - T1) + (T3 - T4)) / 2,  delay = (T4 - T1) - (T3 - T2)
// T1/T4 are our send/receive times, T2/T3 the server's receive/transmit times. Enough to tell an operator whether
// the VPS clock drifted (candles, session times and JWT expiry all read it); not a time-keeping daemon.
import { createSocket } from 'node:dgram';
import { isIPv6 } from 'node:net';

export const NTP_PACKET_BYTES = 48;
/** Seconds from the NTP epoch (1900-01-01) to the Unix epoch (1970-01-01). */
export const NTP_UNIX_OFFSET_S = 2_208_988_800;
const MODE_CLIENT = 3;
const MODE_SERVER = 4;
const VERSION = 4;

export interface SntpResult {
  /** how far the server's clock is ahead of ours, ms (negative: ours is ahead) */
  offsetMs: number;
  /** round-trip delay, ms */
  delayMs: number;
  stratum: number;
}

export class SntpError extends Error {
  override readonly name = 'SntpError';
}

/** Writes epoch ms as a 64-bit NTP timestamp (32-bit seconds since 1900, 32-bit fraction) at `offset`. */
export function writeNtpTime(buf: Buffer, offset: number, epochMs: number): void {
  const seconds = Math.floor(epochMs / 1000);
  const fraction = Math.round(((epochMs - seconds * 1000) / 1000) * 2 ** 32);
  buf.writeUInt32BE((seconds + NTP_UNIX_OFFSET_S) >>> 0, offset);
  buf.writeUInt32BE(Math.min(fraction, 2 ** 32 - 1), offset + 4);
}

/** Reads a 64-bit NTP timestamp at `offset` as epoch ms. */
export function readNtpTime(buf: Buffer, offset: number): number {
  const seconds = buf.readUInt32BE(offset) - NTP_UNIX_OFFSET_S;
  return seconds * 1000 + (buf.readUInt32BE(offset + 4) / 2 ** 32) * 1000;
}

/** Splits `host`, `host:port` or `[v6]:port` (default port 123). */
export function parseNtpServer(server: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (bracketed) return { host: bracketed[1] ?? '', port: Number(bracketed[2] ?? 123) };
  const [host = '', port] = server.split(':');
  return { host, port: Number(port ?? 123) };
}

/**
 * Asks `server` for the time once. `now` is our clock (injected so tests can fix it). Rejects with SntpError on a
 * timeout, an unreachable host, a malformed or spoofed answer (its originate timestamp must echo our transmit
 * timestamp) and a kiss-o'-death (stratum 0: the server asks us to go away).
 */
export function querySntp(
  server: string,
  options: { timeoutMs: number; now?: () => number },
): Promise<SntpResult> {
  const now = options.now ?? Date.now;
  const { host, port } = parseNtpServer(server);
  const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
  return new Promise<SntpResult>((resolve, reject) => {
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new SntpError(`no answer within ${options.timeoutMs} ms`))),
      options.timeoutMs,
    );
    socket.on('error', (err) => finish(() => reject(new SntpError(err.message))));
    const request = Buffer.alloc(NTP_PACKET_BYTES);
    request[0] = (VERSION << 3) | MODE_CLIENT;
    const t1 = now();
    writeNtpTime(request, 40, t1);
    // The echoed bytes, compared exactly: a rounding round trip through readNtpTime could differ by a fraction.
    const sent = request.subarray(40, 48);
    socket.on('message', (msg) => {
      const t4 = now();
      if (msg.length < NTP_PACKET_BYTES || ((msg[0] ?? 0) & 0x07) !== MODE_SERVER) return;
      if (!msg.subarray(24, 32).equals(sent)) return; // not an answer to our request
      const stratum = msg[1] ?? 0;
      if (stratum === 0) {
        const code = msg.subarray(12, 16).toString('ascii');
        finish(() => reject(new SntpError(`the server refused to answer (kiss code ${code})`)));
        return;
      }
      const t2 = readNtpTime(msg, 32);
      const t3 = readNtpTime(msg, 40);
      finish(() => resolve({ offsetMs: (t2 - t1 + (t3 - t4)) / 2, delayMs: t4 - t1 - (t3 - t2), stratum }));
    });
    socket.send(request, port, host, (err) => {
      if (err) finish(() => reject(new SntpError(err.message)));
    });
  });
}
