import { describe, expect, it } from 'vitest';
import { connectFrame, msgFrame, NatsParser } from './nats';

describe('NATS protocol', () => {
  it('reads INFO, PING, +OK, PONG and MSG, across chunks split anywhere', () => {
    const bytes = Buffer.concat([
      Buffer.from('INFO {"nonce":"abc","auth_required":true}\r\nPING\r\n+OK\r\n'),
      msgFrame('/ld/indices/nse/price.NIFTY', '7', Buffer.from([1, 13, 10, 2])),
      Buffer.from('PONG\r\n'),
    ]);
    for (const cut of [1, 5, 45, 60, 70, bytes.length - 3]) {
      const parser = new NatsParser();
      const ops = [...parser.push(bytes.subarray(0, cut)), ...parser.push(bytes.subarray(cut))];
      expect(ops.map((o) => o.op)).toEqual(['INFO', 'PING', 'OK', 'MSG', 'PONG']);
      expect(ops[0]).toMatchObject({ info: { nonce: 'abc' } });
      // The payload may itself hold CRLF: its length decides.
      expect(ops[3]).toMatchObject({
        subject: '/ld/indices/nse/price.NIFTY',
        sid: '7',
        payload: Buffer.from([1, 13, 10, 2]),
      });
    }
  });

  it('gives an HMSG its payload without the headers', () => {
    const headers = 'NATS/1.0\r\nX: 1\r\n\r\n';
    const frame = `HMSG s.1 3 ${headers.length} ${headers.length + 2}\r\n${headers}hi\r\n`;
    const [op] = new NatsParser().push(Buffer.from(frame));
    expect(op).toMatchObject({ op: 'MSG', subject: 's.1', payload: Buffer.from('hi') });
  });

  it('reads -ERR and refuses what is not NATS', () => {
    expect(new NatsParser().push(Buffer.from("-ERR 'Authorization Violation'\r\n"))).toEqual([
      { op: 'ERR', message: 'Authorization Violation' },
    ]);
    expect(() => new NatsParser().push(Buffer.from('HTTP/1.1 200 OK\r\n'))).toThrow();
    expect(() => new NatsParser().push(Buffer.from('MSG a 1 x\r\n'))).toThrow();
  });

  it('writes CONNECT with the JWT and signature', () => {
    const frame = connectFrame({ jwt: 'j.w.t', sig: 'c2ln' });
    expect(frame.endsWith('\r\n')).toBe(true);
    expect(JSON.parse(frame.slice(8))).toMatchObject({
      jwt: 'j.w.t',
      sig: 'c2ln',
      protocol: 1,
      verbose: false,
    });
  });
});
