// The server's VAPID key pair (RFC 8292): browsers subscribe with its public key, and push services accept only
// messages signed with its private key. Like the other generated secrets it lives in DATA_DIR/secrets (mode 0600,
// copied by `npm run backup`): created on first start, reused after. Losing it silently breaks every existing
// subscription (push services refuse the new key), so a malformed file is an error, never replaced.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';
import { KeyError, SECRETS_DIR } from '../../crypto/keys';

export const VAPID_KEY_FILE = 'vapid.json';

/** Base64url, as browsers and web-push take them: a P-256 public point (65 bytes) and private scalar (32 bytes). */
export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function parseKeys(text: string, file: string): VapidKeys {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KeyError(`${file} is not JSON; restore it from a backup (or delete it to make a new pair)`);
  }
  const { publicKey, privateKey } = (parsed ?? {}) as Record<string, unknown>;
  if (
    typeof publicKey !== 'string' ||
    typeof privateKey !== 'string' ||
    !BASE64URL.test(publicKey) ||
    !BASE64URL.test(privateKey) ||
    Buffer.from(publicKey, 'base64url').length !== 65 ||
    Buffer.from(privateKey, 'base64url').length !== 32
  ) {
    throw new KeyError(`${file} must hold { "publicKey", "privateKey" } as base64url P-256 keys`);
  }
  return { publicKey, privateKey };
}

/** The VAPID keys from `<dataDir>/secrets/vapid.json`, generated (mode 0600, directory 0700) when missing. */
export function loadOrCreateVapidKeys(dataDir: string): VapidKeys {
  const dir = join(dataDir, SECRETS_DIR);
  const file = join(dir, VAPID_KEY_FILE);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!existsSync(file)) {
    try {
      const keys = webpush.generateVAPIDKeys();
      const text = JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey }) + '\n';
      // 'wx': two servers starting on one DATA_DIR cannot overwrite each other's pair.
      writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return parseKeys(readFileSync(file, 'utf8'), file);
}
