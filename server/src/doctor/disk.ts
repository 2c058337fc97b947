// Free space where DATA_DIR lives: SQLite's WAL, VACUUM INTO backups and the instrument cache all need room, and a
// full disk stops every write (orders included).
import { statfs } from 'node:fs/promises';
import { fail, ok, warn, type CheckResult, type DoctorCheck } from './types';

const GIB = 1024 ** 3;
export const DISK_WARN_BYTES = 2 * GIB;
export const DISK_FAIL_BYTES = 256 * 1024 ** 2;

/** The verdict for `freeBytes` available of `totalBytes` at `where`. */
export function diskVerdict(where: string, freeBytes: number, totalBytes: number): CheckResult {
  const percent = totalBytes > 0 ? Math.round((freeBytes / totalBytes) * 100) : 0;
  const message = `${(freeBytes / GIB).toFixed(1)} GiB free (${percent} %) at ${where}`;
  const fix = 'free space (old backups, `journalctl --vacuum-size=200M`) or grow the disk';
  if (freeBytes < DISK_FAIL_BYTES) return fail(message, fix);
  if (freeBytes < DISK_WARN_BYTES || percent < 10) return warn(message, fix);
  return ok(message);
}

export const diskCheck: DoctorCheck = {
  name: 'disk',
  async run({ config }) {
    try {
      const s = await statfs(config.dataDir);
      return diskVerdict(config.dataDir, s.bavail * s.bsize, s.blocks * s.bsize);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      return warn(
        `DATA_DIR ${config.dataDir} does not exist`,
        'start the server once: it creates DATA_DIR (0700)',
      );
    }
  },
};
