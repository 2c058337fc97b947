// The encrypted archive format (docs/backup-format.md): standard primitives from node:crypto, composed the way
// age does it. A random 32-byte file key is wrapped for each recipient — a passphrase through scrypt, and
// optionally an X25519 public key through ECDH + HKDF — with AES-256-GCM. The payload is cut into 64 KiB chunks,
// each sealed with AES-256-GCM under a key derived from the file key (HKDF, random salt) with a nonce made of the
// chunk's counter and a last-chunk flag (the STREAM construction), and with the whole header as associated data.
// So a wrong passphrase fails at the wrapped key, an altered header or chunk fails its tag, and a reordered,
// dropped or truncated chunk fails because its counter or flag no longer matches — all before anything is used.
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  scrypt as scryptCallback,
  type KeyObject,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { z } from 'zod';
import { ByteReader } from './byteReader';
import { BackupError } from './errors';

const scrypt = promisify(scryptCallback) as (
  password: Buffer,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const MAGIC = Buffer.from('OPBACKUP', 'ascii');
export const FORMAT_VERSION = 1;
export const CHUNK_BYTES = 64 * 1024;
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const SALT_BYTES = 16;
const MAX_HEADER_BYTES = 16 * 1024;
const PAYLOAD_INFO = 'optionpilot-backup v1 payload';
const X25519_INFO = 'optionpilot-backup v1 x25519';

/** scrypt cost; 2^17 × 8 uses 128 MiB and about half a second, so guessing passphrases offline stays slow. */
export interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}
export const DEFAULT_SCRYPT: ScryptParams = { logN: 17, r: 8, p: 1 };

/** Who can open an archive. A backup always has a passphrase recipient; a public key is an optional second one. */
export type Recipient =
  | { kind: 'passphrase'; passphrase: string; scrypt?: ScryptParams }
  | { kind: 'x25519'; publicKey: KeyObject };

/** What opens an archive: its passphrase, or the private key matching a public-key recipient. */
export type Unlock = { kind: 'passphrase'; passphrase: string } | { kind: 'x25519'; privateKey: KeyObject };

const b64 = (length: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9+/]*={0,2}$/)
    .refine((v) => Buffer.from(v, 'base64').length === length, `must be ${length} bytes`);

// Bounds on the costs a header may ask for: a crafted archive must not make restore allocate gigabytes.
const stanzaSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('scrypt'),
    salt: b64(SALT_BYTES),
    logN: z.number().int().min(10).max(20),
    r: z.number().int().min(1).max(32),
    p: z.number().int().min(1).max(16),
    nonce: b64(NONCE_BYTES),
    wrappedKey: b64(KEY_BYTES + TAG_BYTES),
  }),
  z.object({
    type: z.literal('x25519'),
    ephemeralPublicKey: b64(32),
    nonce: b64(NONCE_BYTES),
    wrappedKey: b64(KEY_BYTES + TAG_BYTES),
  }),
]);
const headerSchema = z.object({
  payloadSalt: b64(SALT_BYTES),
  chunkBytes: z.literal(CHUNK_BYTES),
  stanzas: z.array(stanzaSchema).min(1).max(8),
});
type Stanza = z.infer<typeof stanzaSchema>;

function aesGcm(key: Buffer, nonce: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

/** The plaintext, or null when the tag does not match (wrong key, or the bytes were altered). */
function aesGcmOpen(key: Buffer, nonce: Buffer, sealed: Buffer, aad: Buffer): Buffer | null {
  const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}

const hkdf = (secret: Buffer, salt: Buffer, info: string) =>
  Buffer.from(hkdfSync('sha256', secret, salt, info, KEY_BYTES));

function passphraseKey(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.logN;
  return scrypt(Buffer.from(passphrase.normalize('NFC'), 'utf8'), salt, KEY_BYTES, {
    N,
    r: params.r,
    p: params.p,
    maxmem: 256 * N * params.r,
  });
}

const rawX25519 = (key: KeyObject) => Buffer.from(key.export({ format: 'jwk' }).x ?? '', 'base64url');

function x25519Key(
  privateKey: KeyObject,
  publicKey: KeyObject,
  ephemeral: Buffer,
  recipient: Buffer,
): Buffer {
  const shared = diffieHellman({ privateKey, publicKey });
  // An all-zero secret means a low-order public key: nothing secret would protect the file key.
  if (shared.every((byte) => byte === 0)) throw new BackupError('the X25519 public key is not usable');
  return hkdf(shared, Buffer.concat([ephemeral, recipient]), X25519_INFO);
}

async function wrapFor(recipient: Recipient, fileKey: Buffer): Promise<Stanza> {
  const nonce = randomBytes(NONCE_BYTES);
  if (recipient.kind === 'passphrase') {
    const params = recipient.scrypt ?? DEFAULT_SCRYPT;
    const salt = randomBytes(SALT_BYTES);
    const kek = await passphraseKey(recipient.passphrase, salt, params);
    const wrappedKey = aesGcm(kek, nonce, fileKey, Buffer.from('scrypt'));
    return { type: 'scrypt', salt: salt.toString('base64'), ...params, ...encoded(nonce, wrappedKey) };
  }
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralRaw = rawX25519(ephemeral.publicKey);
  const kek = x25519Key(
    ephemeral.privateKey,
    recipient.publicKey,
    ephemeralRaw,
    rawX25519(recipient.publicKey),
  );
  const wrappedKey = aesGcm(kek, nonce, fileKey, Buffer.from('x25519'));
  return {
    type: 'x25519',
    ephemeralPublicKey: ephemeralRaw.toString('base64'),
    ...encoded(nonce, wrappedKey),
  };
}

const encoded = (nonce: Buffer, wrappedKey: Buffer) => ({
  nonce: nonce.toString('base64'),
  wrappedKey: wrappedKey.toString('base64'),
});

/** The file key from the first stanza `unlock` opens; a clear error when none does. */
async function unwrap(stanzas: Stanza[], unlock: Unlock): Promise<Buffer> {
  const candidates = stanzas.filter((s) => s.type === (unlock.kind === 'passphrase' ? 'scrypt' : 'x25519'));
  if (candidates.length === 0) {
    throw new BackupError(
      unlock.kind === 'passphrase'
        ? 'this archive cannot be opened with a passphrase'
        : 'this archive was not encrypted to a backup public key: use its passphrase',
    );
  }
  for (const stanza of candidates) {
    const nonce = Buffer.from(stanza.nonce, 'base64');
    const wrapped = Buffer.from(stanza.wrappedKey, 'base64');
    let kek: Buffer;
    if (stanza.type === 'scrypt' && unlock.kind === 'passphrase') {
      kek = await passphraseKey(unlock.passphrase, b(stanza.salt), stanza);
    } else if (stanza.type === 'x25519' && unlock.kind === 'x25519') {
      const ephemeralRaw = b(stanza.ephemeralPublicKey);
      const ephemeral = createPublicKey({
        key: { kty: 'OKP', crv: 'X25519', x: ephemeralRaw.toString('base64url') },
        format: 'jwk',
      });
      const own = rawX25519(createPublicKey(unlock.privateKey));
      kek = x25519Key(unlock.privateKey, ephemeral, ephemeralRaw, own);
    } else {
      continue;
    }
    const fileKey = aesGcmOpen(kek, nonce, wrapped, Buffer.from(stanza.type));
    if (fileKey) return fileKey;
  }
  throw new BackupError(
    unlock.kind === 'passphrase'
      ? 'wrong passphrase: the archive could not be decrypted (nothing was written)'
      : 'this private key does not open the archive (nothing was written)',
  );
}

const b = (value: string) => Buffer.from(value, 'base64');

/** Nonce of chunk `index`: an 11-byte big-endian counter, then 1 when it is the last chunk. */
function chunkNonce(index: number, last: boolean): Buffer {
  const nonce = Buffer.alloc(NONCE_BYTES);
  nonce.writeBigUInt64BE(BigInt(index), 3);
  nonce[NONCE_BYTES - 1] = last ? 1 : 0;
  return nonce;
}

/** Encrypts `plaintext` for `recipients`: yields the header, then the sealed chunks. */
export async function* encryptStream(
  plaintext: AsyncIterable<Uint8Array>,
  recipients: readonly Recipient[],
): AsyncGenerator<Buffer> {
  if (!recipients.some((r) => r.kind === 'passphrase')) throw new BackupError('a passphrase is required');
  const fileKey = randomBytes(KEY_BYTES);
  const payloadSalt = randomBytes(SALT_BYTES);
  const stanzas = [];
  for (const recipient of recipients) stanzas.push(await wrapFor(recipient, fileKey));
  const json = Buffer.from(
    JSON.stringify({ payloadSalt: payloadSalt.toString('base64'), chunkBytes: CHUNK_BYTES, stanzas }),
  );
  const lengths = Buffer.alloc(3);
  lengths[0] = FORMAT_VERSION;
  lengths.writeUInt16BE(json.length, 1);
  const header = Buffer.concat([MAGIC, lengths, json]);
  yield header;

  const key = hkdf(fileKey, payloadSalt, PAYLOAD_INFO);
  let index = 0;
  let buffered = Buffer.alloc(0);
  for await (const piece of plaintext) {
    buffered = Buffer.concat([buffered, piece]);
    // Keep at least one byte back: only the end of the input tells which chunk is the last.
    while (buffered.length > CHUNK_BYTES) {
      yield aesGcm(key, chunkNonce(index, false), buffered.subarray(0, CHUNK_BYTES), header);
      buffered = buffered.subarray(CHUNK_BYTES);
      index += 1;
    }
  }
  yield aesGcm(key, chunkNonce(index, true), buffered, header);
}

/** Decrypts an archive made by encryptStream, chunk by chunk; throws BackupError on anything not authentic. */
export async function* decryptStream(
  source: AsyncIterable<Uint8Array>,
  unlock: Unlock,
): AsyncGenerator<Buffer> {
  const reader = new ByteReader(source);
  const fail = (message: string) => new BackupError(message);
  const magic = await reader.read(MAGIC.length);
  if (!magic.equals(MAGIC)) throw new BackupError('not an OptionPilot backup archive');
  const lengths = await reader.readExactly(3, 'the header', fail);
  if (lengths[0] !== FORMAT_VERSION) {
    throw new BackupError(`archive format ${lengths[0]} is not one this version of OptionPilot reads`);
  }
  const jsonLength = lengths.readUInt16BE(1);
  if (jsonLength > MAX_HEADER_BYTES) throw new BackupError('the archive header is malformed');
  const json = await reader.readExactly(jsonLength, 'the header', fail);
  let parsed;
  try {
    parsed = headerSchema.safeParse(JSON.parse(json.toString('utf8')));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) throw new BackupError('the archive header is malformed or was altered');
  const header = Buffer.concat([MAGIC, lengths, json]);
  const fileKey = await unwrap(parsed.data.stanzas, unlock);
  const key = hkdf(fileKey, b(parsed.data.payloadSalt), PAYLOAD_INFO);

  for (let index = 0; ; index += 1) {
    const sealed = await reader.read(CHUNK_BYTES + TAG_BYTES);
    if (sealed.length < TAG_BYTES) throw new BackupError('the archive is truncated');
    const last = sealed.length < CHUNK_BYTES + TAG_BYTES || (await reader.atEnd());
    const plain = aesGcmOpen(key, chunkNonce(index, last), sealed, header);
    if (!plain) {
      throw new BackupError(
        `the archive is damaged, truncated or was altered (chunk ${index} failed authentication)`,
      );
    }
    yield plain;
    if (last) return;
  }
}

/** An X25519 public key from a PEM file (`openssl pkey -in backup.key -pubout`). */
export function readPublicKeyFile(file: string): KeyObject {
  const key = readKey(file, (text) => {
    // createPublicKey accepts a private key too (and derives its public half); a private key on the server would
    // defeat the point of the public-key recipient.
    if (text.includes('PRIVATE KEY')) {
      throw new BackupError(
        `${file} is a private key: keep it off the server and give its public half (openssl pkey -pubout)`,
      );
    }
    return createPublicKey(text);
  });
  if (key.asymmetricKeyType !== 'x25519') throw new BackupError(`${file} is not an X25519 public key`);
  return key;
}

/** An X25519 private key from a PEM file (`openssl genpkey -algorithm X25519`). */
export function readPrivateKeyFile(file: string): KeyObject {
  const key = readKey(file, (text) => createPrivateKey(text));
  if (key.asymmetricKeyType !== 'x25519') throw new BackupError(`${file} is not an X25519 private key`);
  return key;
}

function readKey(file: string, parse: (text: string) => KeyObject): KeyObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new BackupError(`cannot read the key file ${file}`);
  }
  try {
    return parse(text);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${file} is not a PEM key`);
  }
}
