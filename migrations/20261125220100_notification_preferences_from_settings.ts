import type { Knex } from 'knex';

// The Settings tab's old notification switches (user_settings.notify_*) become rows of the per-event × per-channel
// table (notification_preferences). Nothing ever sent a notification by them, but a user who turned one off said
// what they did not want, so that choice is kept:
//   notify_push = false            → push off for every trader event
//   notify_trade_execution = false → trade opened, trade closed and order rejected off on every channel
//   notify_pnl_updates = false     → the daily summary off on every channel
//   notify_system_alerts = false   → daily loss limit and broker session expired off on every channel
// Every one of those events is on by default on every channel, so only `enabled = false` rows are written (the
// table stores only what differs from the defaults). The lists are written out here, not imported, so this
// migration does the same thing whatever later code says. The old columns stay (dropping a column rebuilds the
// table on SQLite) but nothing reads or writes them any more.
const PUSH_EVENTS = [
  'trade_opened',
  'trade_closed',
  'order_rejected',
  'daily_loss_limit',
  'broker_session_expired',
  'daily_summary',
];
const BY_SWITCH: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['notify_trade_execution', ['trade_opened', 'trade_closed', 'order_rejected']],
  ['notify_pnl_updates', ['daily_summary']],
  ['notify_system_alerts', ['daily_loss_limit', 'broker_session_expired']],
];
const CHANNELS = ['email', 'telegram', 'push'];

interface OldSwitches {
  user_id: number;
  notify_push: boolean | number;
  notify_trade_execution: boolean | number;
  notify_pnl_updates: boolean | number;
  notify_system_alerts: boolean | number;
}

export async function up(knex: Knex): Promise<void> {
  const now = Date.now();
  const rows = (await knex('user_settings')
    .where({ notify_push: false })
    .orWhere({ notify_trade_execution: false })
    .orWhere({ notify_pnl_updates: false })
    .orWhere({ notify_system_alerts: false })
    .select(
      'user_id',
      'notify_push',
      'notify_trade_execution',
      'notify_pnl_updates',
      'notify_system_alerts',
    )) as OldSwitches[];
  for (const row of rows) {
    const off = new Set<string>();
    if (!row.notify_push) for (const event of PUSH_EVENTS) off.add(`${event}:push`);
    for (const [column, events] of BY_SWITCH) {
      if (row[column as keyof OldSwitches]) continue;
      for (const event of events) for (const channel of CHANNELS) off.add(`${event}:${channel}`);
    }
    const inserts = [...off].map((key) => {
      const [event, channel] = key.split(':');
      return { user_id: row.user_id, event, channel, enabled: false, updated_at: now };
    });
    if (inserts.length > 0) {
      await knex('notification_preferences')
        .insert(inserts)
        .onConflict(['user_id', 'event', 'channel'])
        .ignore();
    }
  }
}

export async function down(): Promise<void> {
  // Nothing to undo: the old columns were left as they were, and the preference rows go with their table when
  // 20261125220000_notifications is rolled back.
}
