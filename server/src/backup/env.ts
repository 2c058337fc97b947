// The backup commands' own settings: read by `npm run backup` / `npm run restore` only, never by the server, so
// the passphrase and the bucket's secret key need not be in the server's environment. Each has a command-line
// flag of the same meaning; the flag wins.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { BackupError } from './errors';
import type { S3Settings } from './store';

/** Shorter passphrases fall to a guessing attack on a stolen archive despite scrypt. */
export const MIN_PASSPHRASE_LENGTH = 12;
export const DEFAULT_KEEP = 14;

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const backupEnvSchema = z.object({
  /** The archive passphrase (or --passphrase-file). Keep a copy off the server: without it no backup opens. */
  BACKUP_PASSPHRASE: optional(z.string()),
  /** Where archives go (or --to): a folder on another disk, or s3://bucket/prefix. */
  BACKUP_DIR: optional(z.string()),
  /** Archives kept at the destination, newest first (or --keep); 0 keeps all. */
  BACKUP_KEEP: optional(
    z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(0, 'must be 0 or more'),
  ),
  /** A PEM X25519 public key file: archives can also be opened with its private key, kept off the server. */
  BACKUP_PUBLIC_KEY: optional(z.string()),
  /** S3-compatible endpoint for s3:// destinations, e.g. https://s3.eu-central-1.amazonaws.com */
  BACKUP_S3_ENDPOINT: optional(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  BACKUP_S3_REGION: z.string().default('us-east-1'),
  BACKUP_S3_ACCESS_KEY_ID: optional(z.string()),
  BACKUP_S3_SECRET_ACCESS_KEY: optional(z.string()),
});
export type BackupEnv = z.infer<typeof backupEnvSchema>;

export function loadBackupEnv(env: Record<string, string | undefined> = process.env): BackupEnv {
  const parsed = backupEnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BackupError(`${String(issue?.path[0] ?? 'BACKUP_*')} ${issue?.message ?? 'is invalid'}`);
  }
  return parsed.data;
}

/** The passphrase from --passphrase-file (its first line) or BACKUP_PASSPHRASE; null when neither is given. */
export function passphraseFrom(file: string | undefined, env: BackupEnv): string | null {
  let passphrase: string | undefined = env.BACKUP_PASSPHRASE;
  if (file !== undefined) {
    try {
      passphrase = readFileSync(file, 'utf8').split(/\r?\n/)[0] ?? '';
    } catch {
      throw new BackupError(`cannot read the passphrase file ${file}`);
    }
  }
  if (passphrase === undefined) return null;
  if ([...passphrase].length < MIN_PASSPHRASE_LENGTH) {
    throw new BackupError(`the backup passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters`);
  }
  return passphrase;
}

/** The S3 settings, when an endpoint and both keys are set. */
export function s3From(env: BackupEnv): S3Settings | undefined {
  if (!env.BACKUP_S3_ENDPOINT || !env.BACKUP_S3_ACCESS_KEY_ID || !env.BACKUP_S3_SECRET_ACCESS_KEY)
    return undefined;
  return {
    endpoint: env.BACKUP_S3_ENDPOINT,
    region: env.BACKUP_S3_REGION,
    accessKeyId: env.BACKUP_S3_ACCESS_KEY_ID,
    secretAccessKey: env.BACKUP_S3_SECRET_ACCESS_KEY,
  };
}
