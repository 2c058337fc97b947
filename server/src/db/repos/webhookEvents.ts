import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { WebhookEventRow } from '../rows';

const toEvent = rowMapper<WebhookEventRow>();

export interface NewWebhookEvent {
  provider: string;
  event_id: string;
  event_type: string;
  payload: string;
}

/**
 * Records a webhook delivery. `duplicate` is true when this (provider, event_id) was seen before: the caller
 * acknowledges it and does nothing else (providers retry).
 */
export async function recordWebhookEvent(
  db: Db,
  event: NewWebhookEvent,
  now = Date.now(),
): Promise<{ event: WebhookEventRow; duplicate: boolean }> {
  const inserted = await db('webhook_events')
    .insert({ ...event, received_at: now })
    .onConflict(['provider', 'event_id'])
    .ignore()
    .returning('*');
  if (inserted[0]) return { event: toEvent(inserted[0]), duplicate: false };
  const existing: unknown = await db('webhook_events')
    .where({ provider: event.provider, event_id: event.event_id })
    .first();
  return { event: toEvent(existing), duplicate: true };
}

export async function markWebhookEventProcessed(
  db: Db,
  id: number,
  error: string | null = null,
  now = Date.now(),
): Promise<void> {
  await db('webhook_events').where({ id }).update({ processed_at: now, error });
}
