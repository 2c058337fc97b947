// The admins' inbox of landing-page contact messages: one page, newest first, with the unread count; a message
// is marked read (or unread again) by any admin, audited.
import type { z } from 'zod';
import type { ContactMessageDto, ContactMessagesResponse, contactMessagesQuerySchema } from '../../contract';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { countOf, type ContactMessageRow } from '../../db';
import { presentContactMessage } from '../../presenters/adminCatalog';
import { announceAudit, recordAudit } from '../audit';
import { inWindow, likePattern, pageOf, windowOf } from './listing';

export async function listContactInbox(props: {
  deps: Pick<Deps, 'db'>;
  query: z.output<typeof contactMessagesQuerySchema>;
  now: number;
}): Promise<ContactMessagesResponse> {
  const { query, now } = props;
  const db = props.deps.db.knex;
  const builder = db('contact_messages').select('*');
  if (query.unread === 'true') void builder.whereNull('handled_at');
  if (query.unread === 'false') void builder.whereNotNull('handled_at');
  if (query.search) {
    const pattern = likePattern(query.search);
    void builder.where(
      (w) =>
        void w
          .whereRaw(`lower(email) like ? escape '\\'`, [pattern])
          .orWhereRaw(`lower(name) like ? escape '\\'`, [pattern])
          .orWhereRaw(`lower(message) like ? escape '\\'`, [pattern]),
    );
  }
  inWindow(builder, 'created_at', windowOf(query, now));
  const page = await pageOf({
    builder,
    page: query.page,
    pageSize: query.pageSize,
    orderBy: [
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ],
    map: (raw) => presentContactMessage(raw as unknown as ContactMessageRow),
  });
  const unreadCount = countOf(await db('contact_messages').whereNull('handled_at').count({ n: '*' }));
  return { ...page, unreadCount };
}

/** `PATCH /api/admin/contact-messages/:id { read }` */
export async function markContactMessage(props: {
  deps: Pick<Deps, 'db' | 'clock' | 'realtime'>;
  adminId: number;
  id: number;
  read: boolean;
}): Promise<ContactMessageDto> {
  const { deps, adminId, id, read } = props;
  const now = deps.clock.now();
  const { row, log } = await deps.db.knex.transaction(async (trx) => {
    const before = (await trx('contact_messages').where({ id }).first()) as ContactMessageRow | undefined;
    if (!before) throw new AppError('not_found', { message: `No contact message with id ${id}.` });
    await trx('contact_messages')
      .where({ id })
      .update({ handled_at: read ? (before.handled_at ?? now) : null });
    const row = (await trx('contact_messages').where({ id }).first()) as ContactMessageRow;
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description: `Contact message #${id} from ${before.email} marked ${read ? 'read' : 'unread'}`,
        actorId: adminId,
        data: { before: before.handled_at === null ? 'unread' : 'read', after: read ? 'read' : 'unread' },
      },
    });
    return { row, log };
  });
  announceAudit({ deps, rows: [log] });
  return presentContactMessage(row);
}
