// A fake NTP server on 127.0.0.1 (random UDP port) speaking the SNTP wire format of RFC 4330: it answers a client
// request (mode 3) with a server reply (mode 4, stratum 2) whose originate timestamp echoes the request's transmit
// timestamp and whose receive/transmit timestamps come from an injected clock, so a test decides the offset. It
// can also answer with a kiss-o'-death (stratum 0, "RATE") or stay silent.
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { NTP_PACKET_BYTES, writeNtpTime } from '../../../server/src/doctor/sntp';

export interface FakeNtpOptions {
  /** the server's clock, epoch ms; default Date.now */
  now?: () => number;
  /** `answer` (default), `kiss` (stratum 0, RATE) or `silent` (drop every request) */
  mode?: 'answer' | 'kiss' | 'silent';
}

export interface FakeNtp {
  /** `127.0.0.1:<port>`, a value for NTP_SERVER */
  readonly address: string;
  /** requests received so far */
  requests(): number;
  close(): Promise<void>;
}

export async function startFakeNtp(options: FakeNtpOptions = {}): Promise<FakeNtp> {
  const now = options.now ?? Date.now;
  const socket: Socket = createSocket('udp4');
  let requests = 0;
  socket.on('message', (msg, rinfo) => {
    requests += 1;
    if (options.mode === 'silent' || msg.length < NTP_PACKET_BYTES || ((msg[0] ?? 0) & 0x07) !== 3) return;
    const received = now();
    const reply = Buffer.alloc(NTP_PACKET_BYTES);
    reply[0] = (4 << 3) | 4; // LI 0, version 4, mode 4 (server)
    if (options.mode === 'kiss') {
      reply[1] = 0;
      reply.write('RATE', 12, 'ascii');
    } else {
      reply[1] = 2; // stratum 2: synchronised to a stratum-1 source
      reply.write('LOCL', 12, 'ascii');
      writeNtpTime(reply, 16, received); // reference timestamp
      writeNtpTime(reply, 32, received); // receive timestamp (T2)
    }
    msg.copy(reply, 24, 40, 48); // originate = the client's transmit timestamp
    if (options.mode !== 'kiss') writeNtpTime(reply, 40, now()); // transmit timestamp (T3)
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
