// POST /api/broker/zerodha/postback: Kite's order updates. Kite calls it, not a signed-in user, so there is no
// session to check: authenticity is the checksum hex(sha256(order_id + order_timestamp + api_secret)) with the
// secret of the Kite user's app, verified by the hub before the update reaches that user's live adapter.
import { Router } from '@koa/router';
import type { SuccessResponse } from '../../contract';
import { KitePostbackHub } from '../../brokers/zerodha/postbacks';
import { AppError } from '../../errors';
import type { AppState } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import { kitePostbackSchema } from './schema';

/** Routes of the broker postback resource, mounted under /api. */
export function brokerPostbacksRouter(kite: KitePostbackHub = new KitePostbackHub()): Router<AppState> {
  const router = new Router<AppState>();

  router.post(
    '/broker/zerodha/postback',
    withBody(kitePostbackSchema, async (ctx, input) => {
      const outcome = kite.receive(input);
      if (outcome === 'bad_checksum') {
        throw new AppError('forbidden', {
          message: 'checksum: the postback checksum does not match.',
          field: 'checksum',
        });
      }
      if (outcome === 'unknown_user') {
        throw new AppError('not_found', {
          message: 'user_id: no live Zerodha session for this user.',
          field: 'user_id',
        });
      }
      const body: SuccessResponse = { success: true, message: 'Postback received.' };
      ctx.body = body;
    }),
  );

  return router;
}
