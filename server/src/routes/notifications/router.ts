// /api/notifications/unsubscribe: the link at the foot of a non-essential e-mail and its List-Unsubscribe header.
// GET shows a confirmation page with one button (mail scanners and link previews follow GET links, so a GET never
// unsubscribes); POST turns that event's e-mail off: from the page's button, or straight from the mail client
// (RFC 8058 one-click: `List-Unsubscribe=One-Click` as a form body, which requestPolicy lets through for this path
// only). The signed token is the only credential: it names the user and the event and expires.
import { Router } from '@koa/router';
import { z } from 'zod';
import type { Deps } from '../../deps';
import type { AppState, RouteContext } from '../../middleware/context';
import { ESSENTIAL_EMAIL_EVENTS, writePreferences } from '../../notifications/preferences';
import type { UnsubscribeClaims } from '../../notifications/unsubscribe';
import { EVENT_LABELS } from '../../presenters/notifications';
import { parseQuery } from '../user/schema';

const tokenQuerySchema = z.object({
  token: z
    .string({ error: 'token is required' })
    .trim()
    .min(1, 'token is required')
    .max(2048, 'token is too long'),
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(ctx: RouteContext, status: number, title: string, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><h1 style="font-size:1.4rem">${escapeHtml(title)}</h1>${body}</body></html>`;
}

const INVALID =
  'This unsubscribe link is invalid or has expired. Choose your notifications in Settings instead.';

/** Routes of the notifications resource, mounted under /api/notifications. */
export function notificationsRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/notifications' });

  /** The token's claims when it is valid and names a user who still exists; otherwise answers the error page. */
  async function claimsOf(ctx: RouteContext): Promise<UnsubscribeClaims | undefined> {
    const { token } = parseQuery(tokenQuerySchema, ctx.query);
    const claims = await deps.unsubscribe.verify(token);
    const user = claims && (await deps.db.knex('users').where({ id: claims.userId }).first('id'));
    if (!claims || !user) {
      page(ctx, 400, 'Link not valid', `<p>${escapeHtml(INVALID)}</p>`);
      return undefined;
    }
    if (ESSENTIAL_EMAIL_EVENTS.has(claims.event)) {
      page(
        ctx,
        400,
        'These e-mails cannot be turned off',
        `<p>${escapeHtml(EVENT_LABELS[claims.event].label)} e-mails carry your tax documents and are always sent.</p>`,
      );
      return undefined;
    }
    return claims;
  }

  router.get('/unsubscribe', async (ctx) => {
    const claims = await claimsOf(ctx);
    if (!claims) return;
    const label = EVENT_LABELS[claims.event].label;
    // The form posts back to this very URL (token in the query string).
    page(
      ctx,
      200,
      `Stop “${label}” e-mails?`,
      `<p>You will no longer get an e-mail when this happens. Telegram and browser notifications are not changed; you can turn the e-mails back on in Settings.</p><form method="post"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  router.post('/unsubscribe', async (ctx) => {
    const claims = await claimsOf(ctx);
    if (!claims) return;
    await writePreferences(
      deps.db.knex,
      claims.userId,
      [{ event: claims.event, channel: 'email', enabled: false }],
      deps.clock.now(),
    );
    deps.logger.info({ userId: claims.userId, event: claims.event }, 'e-mail unsubscribed by link');
    const label = EVENT_LABELS[claims.event].label;
    page(
      ctx,
      200,
      'Unsubscribed',
      `<p>You will no longer get “${escapeHtml(label)}” e-mails. You can turn them back on in Settings.</p>`,
    );
  });

  return router;
}
