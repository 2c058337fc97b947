import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { ContactMessageRow } from '../rows';

const toMessage = rowMapper<ContactMessageRow>();

export interface NewContactMessage {
  name: string;
  email: string;
  message: string;
  user_id?: number | null;
}

export async function insertContactMessage(
  db: Db,
  message: NewContactMessage,
  now = Date.now(),
): Promise<ContactMessageRow> {
  const [row] = await db('contact_messages')
    .insert({ ...message, user_id: message.user_id ?? null, created_at: now })
    .returning('*');
  return toMessage(row);
}

/** Newest first; `unhandledOnly` hides messages an admin has dealt with. */
export async function listContactMessages(
  db: Db,
  options: { unhandledOnly?: boolean; limit?: number } = {},
): Promise<ContactMessageRow[]> {
  const query = db('contact_messages').select('*');
  if (options.unhandledOnly) query.whereNull('handled_at');
  query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(options.limit ?? 100);
  return (await query).map(toMessage);
}

export async function markContactMessageHandled(db: Db, id: number, now = Date.now()): Promise<boolean> {
  return (await db('contact_messages').where({ id }).whereNull('handled_at').update({ handled_at: now })) > 0;
}
