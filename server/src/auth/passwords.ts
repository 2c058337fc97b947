// Argon2id password hashing. Parameters follow OWASP's minimum for argon2id (19 MiB, 2 passes, 1 lane): strong
// enough offline, cheap enough that a 2-core server stays responsive under a burst of logins.
import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** false for a wrong password or a malformed hash; never throws for bad input */
  verify(hash: string, password: string): Promise<boolean>;
  /**
   * Spends the same work as a real verification against a hash nobody has, so a login for an unknown e-mail takes
   * as long as one with a wrong password (no account enumeration by timing).
   */
  verifyDummy(password: string): Promise<void>;
}

/** Creates the argon2id hasher; the dummy hash is computed once, on first use. */
export function createPasswordHasher(): PasswordHasher {
  let dummyHash: Promise<string> | undefined;
  const verify = async (hash: string, password: string): Promise<boolean> => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  };
  return {
    hash: (password) => argon2.hash(password, OPTIONS),
    verify,
    async verifyDummy(password) {
      dummyHash ??= argon2.hash('dummy-password-nobody-has', OPTIONS);
      await verify(await dummyHash, password);
    },
  };
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const GENERATED_LENGTH = 20;

/**
 * A random 20-character password (≈ 116 bits) from an unambiguous alphabet, always with a lowercase letter, an
 * uppercase letter and a digit so it satisfies the product's password rule.
 */
export function generatePassword(): string {
  for (;;) {
    const bytes = randomBytes(GENERATED_LENGTH * 2);
    let out = '';
    // Rejection sampling keeps every character equally likely (256 is not a multiple of the alphabet size).
    for (const b of bytes) {
      if (b >= ALPHABET.length * Math.floor(256 / ALPHABET.length)) continue;
      out += ALPHABET[b % ALPHABET.length];
      if (out.length === GENERATED_LENGTH) break;
    }
    if (out.length === GENERATED_LENGTH && /[a-z]/.test(out) && /[A-Z]/.test(out) && /[0-9]/.test(out))
      return out;
  }
}
