// A contact form message: stored for the admins and, in the same transaction, a `contact_message` notice for each
// admin in the notification outbox, so a message is never announced without being stored (or stored unannounced).
import type { Deps } from '../deps';
import { insertContactMessage, type ContactMessageRow, type NewContactMessage } from '../db';
import { recordAdminNotice } from '../notifications/outbox';

/** The first characters of the message in the admins' notice; the whole message is on the admin page. */
const EXCERPT_CHARS = 280;

/** Stores a contact message and records its notice for the admins. */
export async function submitContactMessage(props: {
  deps: Pick<Deps, 'db' | 'clock'>;
  message: NewContactMessage;
}): Promise<ContactMessageRow> {
  const now = props.deps.clock.now();
  return props.deps.db.knex.transaction(async (trx) => {
    const row = await insertContactMessage(trx, props.message, now);
    await recordAdminNotice(
      trx,
      {
        event: 'contact_message',
        factKey: String(row.id),
        payload: {
          messageId: row.id,
          name: row.name,
          email: row.email,
          excerpt:
            row.message.length > EXCERPT_CHARS ? `${row.message.slice(0, EXCERPT_CHARS)}…` : row.message,
        },
      },
      now,
    );
    return row;
  });
}
