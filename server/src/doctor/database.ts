// The database the server uses: reachable, and its migrations current (the server applies pending ones at start,
// so pending migrations mean it has not been restarted since an update).
import { pendingMigrations } from '../db';
import { fail, ok, warn, type DoctorCheck } from './types';

export const databaseCheck: DoctorCheck = {
  name: 'database',
  async run({ db, databaseProblem }) {
    if (db === undefined) {
      return warn(
        databaseProblem ?? 'no database',
        'start the server once (`systemctl start optionpilot`): it creates and migrates it',
      );
    }
    let pending: string[];
    try {
      pending = await pendingMigrations(db);
    } catch (err) {
      return fail(
        `the ${db.dialect} database does not answer: ${err instanceof Error ? err.message : String(err)}`,
        db.dialect === 'postgres'
          ? 'check DATABASE_URL and that PostgreSQL runs'
          : 'check DATA_DIR and its permissions',
      );
    }
    if (pending.length > 0) {
      return warn(
        `${pending.length} migration(s) not applied yet (${pending[0]}…)`,
        'restart the server (`systemctl restart optionpilot`): it migrates at start',
      );
    }
    return ok(`${db.dialect} answers, migrations current`);
  },
};
