// Age of the last backup, from DATA_DIR/backups-state.json ({at, destination, bytes, sha256}), which `npm run backup`
// writes after each successful run. The timer runs daily, so more than 26 hours means a missed run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { formatIst } from '@optionpilot/engine';
import { ok, warn, type DoctorCheck } from './types';

export const BACKUP_STATE_FILE = 'backups-state.json';
export const BACKUP_MAX_AGE_MS = 26 * 3_600_000;

const stateSchema = z.object({
  // an ISO instant or epoch ms
  at: z.union([z.number(), z.string().transform((v) => Date.parse(v))]).refine(Number.isFinite, 'not a time'),
  destination: z.string(),
  bytes: z.number().optional(),
  sha256: z.string().optional(),
});

const SCHEDULE_FIX =
  'enable the daily backup: `systemctl enable --now optionpilot-backup.timer` (README, step 11)';

export const backupAgeCheck: DoctorCheck = {
  name: 'backup',
  async run({ config, now }) {
    let text: string;
    try {
      text = await readFile(join(config.dataDir, BACKUP_STATE_FILE), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      return warn('no backup yet', SCHEDULE_FIX);
    }
    let state: z.output<typeof stateSchema>;
    try {
      state = stateSchema.parse(JSON.parse(text));
    } catch {
      return warn(
        `${BACKUP_STATE_FILE} is unreadable`,
        'run `npm run backup` once by hand and read its output',
      );
    }
    const ageH = (now - state.at) / 3_600_000;
    const size = state.bytes === undefined ? '' : `, ${(state.bytes / 1_048_576).toFixed(1)} MB`;
    const message = `last backup ${formatIst(state.at)} (${ageH.toFixed(1)} h ago) to ${state.destination}${size}`;
    if (now - state.at > BACKUP_MAX_AGE_MS) {
      return warn(`${message}: older than 26 h`, `see \`journalctl -u optionpilot-backup\`; ${SCHEDULE_FIX}`);
    }
    return ok(message);
  },
};
