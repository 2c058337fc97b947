import type { LogDto } from '../contract';
import type { LogRow } from '../db';
import { iso } from './time';

/** LogRow → LogDto; `data` (internal detail such as IPs) stays on the server. */
export function presentLog(log: LogRow): LogDto {
  return {
    id: log.id,
    timestamp: iso(log.at),
    eventType: log.event_type,
    description: log.description,
    userId: log.user_id,
  };
}
