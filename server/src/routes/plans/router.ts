// GET /api/plans: the plans on sale with their prices (integer paise, GST on the price), for the landing page and
// the payment dialog. Public: the same figures the pricing section shows before sign-in. An admin's change to a
// plan (price, on sale or not) shows here at once.
import { Router } from '@koa/router';
import type { PlansResponse } from '../../contract';
import { listPlans } from '../../db';
import type { Deps } from '../../deps';
import type { AppState } from '../../middleware/context';
import { priceOf } from '../../payments/pricing';
import { presentPlan } from '../../presenters/plan';

/** Routes of the plan catalogue, mounted under /api. */
export function plansRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/plans', async (ctx) => {
    const plans = await listPlans(deps.db.knex, { activeOnly: true });
    const body: PlansResponse = { plans: plans.map((plan) => presentPlan(plan, priceOf(plan))) };
    ctx.body = body;
  });
  return router;
}
