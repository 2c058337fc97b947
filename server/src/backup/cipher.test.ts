import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, decryptStream, encryptStream, type Recipient, type Unlock } from './cipher';
import { BackupError } from './errors';

// A low scrypt cost keeps the tests quick; the header carries the cost, so decryption follows it.
const FAST = { logN: 10, r: 8, p: 1 };
const PASSPHRASE = 'correct horse battery staple';

async function* pieces(data: Buffer, size = 10_000): AsyncGenerator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of source) out.push(chunk);
  return Buffer.concat(out);
}

const seal = (
  data: Buffer,
  recipients: Recipient[] = [{ kind: 'passphrase', passphrase: PASSPHRASE, scrypt: FAST }],
) => collect(encryptStream(pieces(data), recipients));
const open = (archive: Buffer, unlock: Unlock = { kind: 'passphrase', passphrase: PASSPHRASE }) =>
  collect(decryptStream(pieces(archive, 7_777), unlock));

describe('encryptStream / decryptStream', () => {
  it.each([0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 3 * CHUNK_BYTES + 12_345])(
    'round-trips %i bytes, and the archive reveals nothing of them',
    async (size) => {
      const data = randomBytes(size);
      const archive = await seal(data);
      expect((await open(archive)).equals(data)).toBe(true);
      if (size >= 32) expect(archive.includes(data.subarray(0, 32))).toBe(false);
    },
  );

  it('gives two archives of the same data different bytes (random key, salt and nonces)', async () => {
    const data = Buffer.from('same data');
    expect((await seal(data)).equals(await seal(data))).toBe(false);
  });

  it('refuses a wrong passphrase with a clear message before yielding anything', async () => {
    const archive = await seal(randomBytes(1000));
    const yielded: Buffer[] = [];
    const attempt = (async () => {
      for await (const chunk of decryptStream(pieces(archive), {
        kind: 'passphrase',
        passphrase: 'not the one at all',
      })) {
        yielded.push(chunk);
      }
    })();
    await expect(attempt).rejects.toThrow(/wrong passphrase/);
    expect(yielded).toEqual([]);
  });

  it('opens with the private key of a public-key recipient, and refuses another key', async () => {
    const pair = generateKeyPairSync('x25519');
    const data = randomBytes(CHUNK_BYTES + 5);
    const archive = await seal(data, [
      { kind: 'passphrase', passphrase: PASSPHRASE, scrypt: FAST },
      { kind: 'x25519', publicKey: pair.publicKey },
    ]);
    expect((await open(archive, { kind: 'x25519', privateKey: pair.privateKey })).equals(data)).toBe(true);
    expect((await open(archive)).equals(data)).toBe(true);
    const other = generateKeyPairSync('x25519');
    await expect(open(archive, { kind: 'x25519', privateKey: other.privateKey })).rejects.toThrow(
      /private key does not open/,
    );
  });

  it('says so when a private key is used on an archive that only has a passphrase', async () => {
    const archive = await seal(Buffer.from('x'));
    const pair = generateKeyPairSync('x25519');
    await expect(open(archive, { kind: 'x25519', privateKey: pair.privateKey })).rejects.toThrow(
      /use its passphrase/,
    );
  });

  it('refuses to encrypt without a passphrase recipient', async () => {
    const pair = generateKeyPairSync('x25519');
    await expect(seal(Buffer.from('x'), [{ kind: 'x25519', publicKey: pair.publicKey }])).rejects.toThrow(
      /passphrase is required/,
    );
  });

  describe('refuses an archive that was altered', () => {
    const data = randomBytes(2 * CHUNK_BYTES + 100);
    const headerEnd = (archive: Buffer) => 11 + archive.readUInt16BE(9);

    it('a flipped byte in any chunk', async () => {
      const archive = await seal(data);
      for (const at of [headerEnd(archive) + 5, headerEnd(archive) + CHUNK_BYTES + 40, archive.length - 3]) {
        const altered = Buffer.from(archive);
        altered[at] = (altered[at] as number) ^ 0x01;
        await expect(open(altered)).rejects.toThrow(/failed authentication/);
      }
    });

    it('a changed header (the payload salt)', async () => {
      const archive = await seal(data);
      const header = JSON.parse(archive.subarray(11, headerEnd(archive)).toString()) as {
        payloadSalt: string;
      };
      const salt = Buffer.from(header.payloadSalt, 'base64');
      salt[0] = (salt[0] as number) ^ 0x01;
      const text = archive
        .subarray(11, headerEnd(archive))
        .toString()
        .replace(header.payloadSalt, salt.toString('base64'));
      const altered = Buffer.concat([
        archive.subarray(0, 11),
        Buffer.from(text),
        archive.subarray(headerEnd(archive)),
      ]);
      await expect(open(altered)).rejects.toThrow(BackupError);
    });

    it('the last chunk dropped, or the file cut mid-chunk', async () => {
      const archive = await seal(data);
      const sealedChunk = CHUNK_BYTES + 16;
      await expect(open(archive.subarray(0, headerEnd(archive) + 2 * sealedChunk))).rejects.toThrow(
        /failed authentication/,
      );
      await expect(open(archive.subarray(0, archive.length - 50))).rejects.toThrow(/failed authentication/);
      await expect(open(archive.subarray(0, headerEnd(archive) + 4))).rejects.toThrow(/truncated/);
      await expect(open(archive.subarray(0, 9))).rejects.toThrow(/truncated/);
    });

    it('two chunks swapped', async () => {
      const archive = await seal(data);
      const start = headerEnd(archive);
      const sealedChunk = CHUNK_BYTES + 16;
      const swapped = Buffer.concat([
        archive.subarray(0, start),
        archive.subarray(start + sealedChunk, start + 2 * sealedChunk),
        archive.subarray(start, start + sealedChunk),
        archive.subarray(start + 2 * sealedChunk),
      ]);
      await expect(open(swapped)).rejects.toThrow(/chunk 0 failed authentication/);
    });

    it('a header asking for an abusive scrypt cost', async () => {
      const archive = await seal(Buffer.from('x'));
      const text = archive.subarray(11, headerEnd(archive)).toString().replace('"logN":10', '"logN":30');
      const length = Buffer.alloc(2);
      length.writeUInt16BE(Buffer.byteLength(text));
      const altered = Buffer.concat([
        archive.subarray(0, 9),
        length,
        Buffer.from(text),
        archive.subarray(headerEnd(archive)),
      ]);
      await expect(open(altered)).rejects.toThrow(/header is malformed/);
    });
  });

  it('refuses a file that is not an archive', async () => {
    await expect(open(Buffer.from('SQLite format 3\0 and more bytes'))).rejects.toThrow(
      /not an OptionPilot backup/,
    );
  });
});
