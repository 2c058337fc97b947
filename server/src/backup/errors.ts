/** A backup or restore that cannot go on; the message says why and what to do, and never holds a secret. */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}
