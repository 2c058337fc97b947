// Renewal reminders: 3 days and 1 day before the end, once each per end date, caught up after downtime without a
// late 3-day mail, sent afresh after a renewal, never to a lapsed subscription; a refused mail is recorded and
// does not stop the others; without SMTP nothing is pretended.
import { beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import { createLogger } from '../logger';
import { insertUser, updateUser, type Database } from '../db';
import type { MailMessage, Mailer } from '../mail/mailer';
import { testDialects, useTestDatabase } from '../db/testing';
import { reminderDue, reminderMail, sendDueReminders } from './renewalReminders';

const DAY = 86_400_000;
const HOUR = 3_600_000;

function recordingMailer(refuse: (to: string) => boolean = () => false): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(message) {
      if (refuse(message.to)) throw new Error('550 mailbox unavailable');
      sent.push(message);
    },
    close() {},
  };
}

describe('reminderDue and the mail', () => {
  it('picks the nearest reminder not yet passed', () => {
    expect(reminderDue(4 * DAY)).toBeNull();
    expect(reminderDue(3 * DAY)).toBe('3d');
    expect(reminderDue(DAY + 1)).toBe('3d');
    expect(reminderDue(DAY)).toBe('1d');
    expect(reminderDue(1)).toBe('1d');
    expect(reminderDue(0)).toBeNull();
  });

  it('states the end in IST and links to Manage Subscription', () => {
    const mail = reminderMail({
      firstName: 'Asha',
      endAt: Date.UTC(2026, 11, 1, 10, 0, 0),
      kind: '1d',
      publicUrl: 'https://trade.example.in',
    });
    expect(mail.subject).toBe('Your OptionPilot subscription ends tomorrow');
    expect(mail.text).toContain('Tuesday, 1 December 2026');
    expect(mail.text).toMatch(/3:30\s?pm IST/i);
    expect(mail.text).toContain('https://trade.example.in/subscription');
    expect(mail.text).toContain('open are still managed to their exits');
  });
});

describe.each(testDialects())('sendDueReminders (%s)', (dialect) => {
  const knex = useTestDatabase(dialect);
  let clock: ReturnType<typeof createManualClock>;
  beforeEach(() => {
    clock = createManualClock(Date.UTC(2026, 10, 23, 4, 0, 0));
  });
  const deps = (mailer: Mailer | null) => ({
    db: { knex: knex() } as unknown as Database,
    clock,
    logger: createLogger({ level: 'silent' }),
    realtime: { toAdmins: () => undefined } as never,
    mailer,
    config: { publicUrl: 'https://trade.example.in' },
  });
  let n = 0;
  async function subscriber(endAt: number, status = 'active') {
    n += 1;
    const user = await insertUser(knex(), {
      email: `remind${n}@example.com`,
      first_name: 'Asha',
      last_name: 'Rao',
      password_hash: 'x',
    });
    await updateUser(knex(), user.id, {
      subscription_status: status as 'active',
      subscription_end_at: endAt,
    });
    return user;
  }
  const rows = async (userId: number) =>
    (await knex()('renewal_reminders').where({ user_id: userId }).orderBy('kind')) as Array<{
      kind: string;
      status: string;
    }>;

  it('sends the 3-day reminder once, then the 1-day one, then nothing', async () => {
    const mailer = recordingMailer();
    const user = await subscriber(clock.now() + 3 * DAY - HOUR);
    expect(await sendDueReminders({ deps: deps(mailer) })).toBe(1);
    expect(await sendDueReminders({ deps: deps(mailer) })).toBe(0);
    expect(mailer.sent.map((m) => [m.to, m.subject])).toEqual([
      [user.email, 'Your OptionPilot subscription ends in 3 days'],
    ]);
    clock.advance(2 * DAY);
    expect(await sendDueReminders({ deps: deps(mailer) })).toBe(1);
    expect(mailer.sent[1]?.subject).toBe('Your OptionPilot subscription ends tomorrow');
    clock.advance(HOUR / 2);
    expect(await sendDueReminders({ deps: deps(mailer) })).toBe(0);
    expect(await rows(user.id)).toMatchObject([
      { kind: '1d', status: 'sent' },
      { kind: '3d', status: 'sent' },
    ]);
    const audit = await knex()('logs').where({ user_id: user.id });
    expect(audit).toHaveLength(2);
  });

  it('after downtime sends only the 1-day reminder and records the 3-day one as skipped', async () => {
    const mailer = recordingMailer();
    const user = await subscriber(clock.now() + 20 * HOUR);
    expect(await sendDueReminders({ deps: deps(mailer) })).toBe(1);
    expect(mailer.sent.map((m) => m.subject)).toEqual(['Your OptionPilot subscription ends tomorrow']);
    expect(await rows(user.id)).toMatchObject([
      { kind: '1d', status: 'sent' },
      { kind: '3d', status: 'skipped' },
    ]);
  });

  it('reminds again for the new end date after a renewal', async () => {
    const mailer = recordingMailer();
    const user = await subscriber(clock.now() + 2 * DAY);
    await sendDueReminders({ deps: deps(mailer) });
    await updateUser(knex(), user.id, { subscription_end_at: clock.now() + 2 * DAY + 30 * DAY });
    clock.advance(30 * DAY);
    expect(await sendDueReminders({ deps: deps(mailer) })).toBe(1);
    expect(mailer.sent.filter((m) => m.to === user.email)).toHaveLength(2);
  });

  it('reminds nobody whose subscription is not active or ends later', async () => {
    const mailer = recordingMailer();
    await subscriber(clock.now() + 2 * DAY, 'expired');
    await subscriber(clock.now() + 2 * DAY, 'inactive');
    await subscriber(clock.now() + 5 * DAY);
    await subscriber(clock.now() - HOUR);
    expect(await sendDueReminders({ deps: deps(mailer) })).toBe(0);
    expect(mailer.sent).toEqual([]);
  });

  it('a refused mail is recorded as failed, not retried, and the others still go out', async () => {
    const refused = await subscriber(clock.now() + 2 * DAY);
    const fine = await subscriber(clock.now() + 2 * DAY);
    const mailer = recordingMailer((to) => to === refused.email);
    expect(await sendDueReminders({ deps: deps(mailer) })).toBe(1);
    expect(mailer.sent.map((m) => m.to)).toEqual([fine.email]);
    expect(await rows(refused.id)).toMatchObject([{ kind: '3d', status: 'failed' }]);
    expect(await sendDueReminders({ deps: deps(recordingMailer()) })).toBe(0);
  });

  it('without SMTP records the reminder as skipped and sends nothing', async () => {
    const user = await subscriber(clock.now() + 2 * DAY);
    expect(await sendDueReminders({ deps: deps(null) })).toBe(0);
    expect(await rows(user.id)).toMatchObject([{ kind: '3d', status: 'skipped' }]);
  });
});
