// /api/user/telegram: the caller's Telegram link (Settings → Telegram). A trader asks for a one-time code and its
// t.me deep link, opens it, and the bot (notifications/channels/telegram.ts) links the chat the code arrives from;
// either side can unlink. Every route acts on the caller's own record only.
import { Router } from '@koa/router';
import { Api } from 'grammy';
import type { TelegramLinkCodeDto, TelegramLinkDto } from '../../contract';
import { telegramLinkCodeSchema } from '../../contract';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { requireAuth } from '../../middleware/auth';
import { authOf, type AppState } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import { describeTelegramError } from '../../notifications/channels/telegramErrors';
import { findLinkByUser, issueLinkCode, unlinkTelegram } from '../../notifications/channels/telegramLinks';
import { presentTelegramLink } from '../../presenters/telegram';
import { iso } from '../../presenters/time';
import { canOnOwnRecord, rateLimit } from '../user/access';

/** Codes a trader may ask for per 15 minutes: each one is a row, and only the newest links. */
export const LINK_CODE_BUDGET = { name: 'telegram-code:user', limit: 10, windowMs: 15 * 60_000 } as const;

/** Routes of the Telegram link resource, mounted under /api. */
export function telegramRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/user/telegram' });
  const telegram = deps.config.telegram;
  const own = [requireAuth(deps), canOnOwnRecord('user:read')] as const;
  const ownWrite = [requireAuth(deps), canOnOwnRecord('user:update')] as const;

  // The bot's @username for the deep link, asked of Telegram once (getMe) and kept; a failure is asked again.
  let botUsername: Promise<string> | undefined;
  const usernameOfBot = (settings: NonNullable<typeof telegram>): Promise<string> =>
    (botUsername ??= new Api(settings.botToken, { apiRoot: settings.apiRoot }).getMe().then(
      (me) => me.username,
      (err: unknown) => {
        botUsername = undefined;
        deps.logger.warn({ error: describeTelegramError(err, settings.botToken) }, 'Telegram getMe failed');
        throw new AppError('service_unavailable', {
          message: 'Telegram cannot be reached right now. Please try again in a minute.',
          retryAfterSeconds: 60,
        });
      },
    ));

  const notConfigured = () =>
    new AppError('not_found', { message: 'Telegram notifications are not set up on this server.' });

  router.get('/', ...own, async (ctx) => {
    const link = await findLinkByUser(deps.db.knex, authOf(ctx).user.id);
    const body: TelegramLinkDto = presentTelegramLink(link, telegram !== undefined);
    ctx.body = body;
  });

  router.post(
    '/link-code',
    ...ownWrite,
    rateLimit(deps, LINK_CODE_BUDGET, (ctx) => String(authOf(ctx).user.id)),
    withBody(telegramLinkCodeSchema, async (ctx) => {
      if (telegram === undefined) throw notConfigured();
      const username = await usernameOfBot(telegram);
      const { code, expiresAt } = await issueLinkCode(deps.db.knex, authOf(ctx).user.id, deps.clock.now());
      const body: TelegramLinkCodeDto = {
        code,
        expiresAt: iso(expiresAt),
        botUsername: username,
        deepLink: `https://t.me/${encodeURIComponent(username)}?start=${code}`,
      };
      ctx.status = 201;
      ctx.body = body;
    }),
  );

  router.delete('/link', ...ownWrite, async (ctx) => {
    await unlinkTelegram({ deps, userId: authOf(ctx).user.id, reason: 'settings' });
    const body: TelegramLinkDto = presentTelegramLink(undefined, telegram !== undefined);
    ctx.body = body;
  });

  return router;
}
