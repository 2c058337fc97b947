// PLACEHOLDER: a generic rendering of any notice, so the sender runs end to end. The events work (issue 20,
// i20-events) replaces this file with the real per-event texts; keep the signature.
import type { Config } from '../config';
import type { Database } from '../db';
import type { NotificationPayload } from './outbox';
import { ESSENTIAL_EMAIL_EVENTS } from './preferences';
import type { NotificationEvent, RenderedNotification } from './types';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Renders one outbox row for every channel. */
export async function renderNotice(
  ctx: { db: Database; config: Config },
  row: {
    id: number;
    event: NotificationEvent;
    userId: number;
    payload: NotificationPayload;
    createdAt: number;
  },
): Promise<RenderedNotification> {
  const title = `OptionPilot: ${row.event.replace(/_/g, ' ')}`;
  const details = Object.entries(row.payload).map(([key, value]) => `${key}: ${String(value)}`);
  const text = [title, ...details, `${ctx.config.publicUrl}/dashboard`].join('\n');
  return {
    outboxId: row.id,
    event: row.event,
    title,
    text,
    html: `<p>${text.split('\n').map(escapeHtml).join('<br>')}</p>`,
    path: '/dashboard',
    essential: ESSENTIAL_EMAIL_EVENTS.has(row.event),
  };
}
