// POST /api/broker/:broker/postback: order updates a broker pushes over HTTP (Kite's postbacks). The broker calls
// it, not a signed-in user, so there is no session to check: the body is parsed with the broker module's own schema
// and its signature (Kite: hex(sha256(order_id + order_timestamp + api_secret)) with the secret of that user's app)
// is verified by the module before the update reaches that account's live adapter.
import { Router } from '@koa/router';
import { z } from 'zod';
import type { SuccessResponse } from '../../contract';
import type { BrokerModule } from '../../brokers/types';
import { AppError, validationError } from '../../errors';
import type { AppState } from '../../middleware/context';
import { withBody } from '../../middleware/validate';

/** Any JSON object: the broker's own schema is applied once the broker is known. */
const postbackBodySchema = z.record(z.string(), z.unknown(), { error: 'the body must be a JSON object' });

/** Routes of the broker postback resource, mounted under /api. */
export function brokerPostbacksRouter(
  modules: (type: string) => Pick<BrokerModule, 'label' | 'postback'> | undefined,
): Router<AppState> {
  const router = new Router<AppState>();

  router.post(
    '/broker/:broker/postback',
    withBody(postbackBodySchema, async (ctx, input) => {
      const module = modules(String(ctx.params.broker));
      if (module?.postback === undefined) {
        throw new AppError('not_found', { message: 'No broker here takes postbacks at this address.' });
      }
      const parsed = module.postback.schema.safeParse(input);
      if (!parsed.success) throw validationError(parsed.error);
      const outcome = module.postback.receive(parsed.data);
      if (outcome === 'bad_signature') {
        throw new AppError('forbidden', {
          message: 'checksum: the postback checksum does not match.',
          field: 'checksum',
        });
      }
      if (outcome === 'unknown_account') {
        throw new AppError('not_found', {
          message: `user_id: no live ${module.label} session for this user.`,
          field: 'user_id',
        });
      }
      const body: SuccessResponse = { success: true, message: 'Postback received.' };
      ctx.body = body;
    }),
  );

  return router;
}
