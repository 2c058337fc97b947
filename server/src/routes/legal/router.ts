// GET /api/legal/terms and /api/legal/privacy: the Terms of Service and Privacy Policy the sign-up checkbox links
// to, as Markdown (the operator's own file under DATA_DIR/legal, else the built-in text naming the operator).
// Public: a visitor reads them before creating an account. No input to validate.
import { Router } from '@koa/router';
import { LEGAL_DOCUMENTS } from '../../contract';
import type { Deps } from '../../deps';
import type { AppState } from '../../middleware/context';
import { loadLegalDocument } from '../../legal/documents';

/** Routes of the legal documents, mounted under /api. */
export function legalRouter(deps: Pick<Deps, 'config' | 'logger'>): Router<AppState> {
  const router = new Router<AppState>();
  for (const document of LEGAL_DOCUMENTS) {
    router.get(`/legal/${document}`, async (ctx) => {
      // An operator's edit shows on the next load; browsers may keep a copy for a minute.
      ctx.set('Cache-Control', 'public, max-age=60');
      ctx.body = await loadLegalDocument({ config: deps.config, logger: deps.logger, document });
    });
  }
  return router;
}
