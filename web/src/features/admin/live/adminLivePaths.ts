// The REST reads behind the admin live lists: the first snapshot, the resync after a reconnect and the polling
// fallback. Lists are paged on the server; the live tabs ask for the newest page only.
export const ADMIN_LIVE_PAGE_SIZE = 50;

export const ADMIN_LIVE_PATHS = {
  controls: '/api/admin/controls',
  trades: `/api/admin/trades?status=open&pageSize=${ADMIN_LIVE_PAGE_SIZE}`,
  signals: `/api/admin/signals?pageSize=${ADMIN_LIVE_PAGE_SIZE}`,
  logs: `/api/admin/logs?pageSize=${ADMIN_LIVE_PAGE_SIZE}`,
} as const;

/** The rows of a list answer: a page `{ items }` or, for the unpaged controls, a plain array. */
export function readList<T>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  if (typeof body === 'object' && body !== null && 'items' in body && Array.isArray(body.items)) {
    return body.items as T[];
  }
  return [];
}
