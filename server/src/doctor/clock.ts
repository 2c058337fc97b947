// Clock offset against NTP_SERVER. Candles are cut at IST minute boundaries, the session opens at 09:15 IST and
// JWTs expire by the clock: a VPS whose clock drifted trades at the wrong moments. An unreachable NTP server is a
// WARN (outbound UDP 123 is often blocked), never a FAIL: it says nothing about the clock itself.
import { querySntp, SntpError } from './sntp';
import { fail, ok, warn, type DoctorCheck } from './types';

/** Offsets beyond these are worth a look / break trading (a candle boundary is off by seconds). */
export const CLOCK_WARN_MS = 250;
export const CLOCK_FAIL_MS = 2000;

const SYNC_FIX =
  'turn on time synchronisation: `timedatectl set-ntp true` (systemd-timesyncd) or install chrony';

export const clockCheck: DoctorCheck = {
  name: 'clock',
  async run({ config, clock, timeoutMs }) {
    const server = config.ntpServer;
    try {
      const { offsetMs, delayMs } = await querySntp(server, { timeoutMs, now: clock });
      const shown = `${offsetMs >= 0 ? '+' : ''}${Math.round(offsetMs)} ms`;
      const message = `offset ${shown} against ${server} (round trip ${Math.round(delayMs)} ms)`;
      const size = Math.abs(offsetMs);
      if (size > CLOCK_FAIL_MS) return fail(`${message}: more than ${CLOCK_FAIL_MS} ms`, SYNC_FIX);
      if (size > CLOCK_WARN_MS) return warn(`${message}: more than ${CLOCK_WARN_MS} ms`, SYNC_FIX);
      return ok(message);
    } catch (err) {
      if (!(err instanceof SntpError)) throw err;
      return warn(
        `could not ask ${server} for the time: ${err.message}`,
        'allow outbound UDP port 123, or set NTP_SERVER to an NTP server this machine reaches',
      );
    }
  },
};
