// Subscriptions page (plans, offers, gateway), Strategies page and the contact inbox.
import type { OfferResponse, StrategyResponse } from '../../contract';
import {
  bankDetailsSchema,
  contactMessagesQuerySchema,
  markContactMessageSchema,
  offerRedemptionsQuerySchema,
  offerSchema,
  patchOfferSchema,
  patchPlanSchema,
  patchStrategySchema,
  strategySchema,
} from '../../contract';
import { validationError } from '../../errors';
import { withBody } from '../../middleware/validate';
import {
  gatewayStatus,
  listAdminOffers,
  listAdminPlans,
  listOfferRedemptions,
  patchPlan,
  saveOffer,
} from '../../services/admin/catalog';
import { listContactInbox, markContactMessage } from '../../services/admin/contactInbox';
import { listAdminStrategies, saveStrategy } from '../../services/admin/strategies';
import { saveBank } from '../../services/admin/bankDetails';
import { z } from 'zod';
import { adminIdOf, pathId, queryOf, type AdminEnv, type AdminRouter } from './shared';

const planCodeSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9_-]{1,40}$/, 'code must be a plan code like monthly');

export function registerCatalogRoutes(router: AdminRouter, env: AdminEnv): void {
  const { deps } = env;

  router.get('/plans', async (ctx) => {
    ctx.body = await listAdminPlans(deps);
  });

  router.patch(
    '/plans/:code',
    withBody(patchPlanSchema, async (ctx, input) => {
      const code = planCodeSchema.safeParse(ctx.params.code);
      if (!code.success) throw validationError(code.error, 'code');
      ctx.body = await patchPlan({ deps, adminId: adminIdOf(ctx), code: code.data, input });
    }),
  );

  router.get('/offers', async (ctx) => {
    ctx.body = await listAdminOffers(deps);
  });

  router.post(
    '/offers',
    withBody(offerSchema, async (ctx, input) => {
      const offer = await saveOffer({ deps, adminId: adminIdOf(ctx), input });
      const body: OfferResponse = { success: true, message: 'Offer created', offer };
      ctx.status = 201;
      ctx.body = body;
    }),
  );

  router.patch(
    '/offers/:id',
    withBody(patchOfferSchema, async (ctx, input) => {
      const offer = await saveOffer({ deps, adminId: adminIdOf(ctx), id: pathId(ctx), input });
      const body: OfferResponse = { success: true, message: 'Offer updated', offer };
      ctx.body = body;
    }),
  );

  router.get('/offers/:id/redemptions', async (ctx) => {
    const id = pathId(ctx);
    ctx.body = await listOfferRedemptions({ deps, id, query: queryOf(ctx, offerRedemptionsQuerySchema) });
  });

  router.post(
    '/bank-details',
    withBody(bankDetailsSchema, async (ctx, input) => {
      const bankDetails = await saveBank({ deps, adminId: adminIdOf(ctx), input });
      ctx.body = { success: true, message: 'Bank details updated', bankDetails };
    }),
  );

  router.get('/payment-gateway', async (ctx) => {
    ctx.body = await gatewayStatus(deps);
  });

  router.get('/strategies', async (ctx) => {
    ctx.body = await listAdminStrategies(deps);
  });

  router.post(
    '/strategies',
    withBody(strategySchema, async (ctx, input) => {
      const strategy = await saveStrategy({ deps, adminId: adminIdOf(ctx), input });
      const body: StrategyResponse = { success: true, message: 'Strategy created', strategy };
      ctx.status = 201;
      ctx.body = body;
    }),
  );

  router.patch(
    '/strategies/:id',
    withBody(patchStrategySchema, async (ctx, input) => {
      const strategy = await saveStrategy({ deps, adminId: adminIdOf(ctx), id: pathId(ctx), input });
      const body: StrategyResponse = { success: true, message: 'Strategy updated', strategy };
      ctx.body = body;
    }),
  );

  router.get('/contact-messages', async (ctx) => {
    ctx.body = await listContactInbox({
      deps,
      query: queryOf(ctx, contactMessagesQuerySchema),
      now: deps.clock.now(),
    });
  });

  router.patch(
    '/contact-messages/:id',
    withBody(markContactMessageSchema, async (ctx, input) => {
      const contactMessage = await markContactMessage({
        deps,
        adminId: adminIdOf(ctx),
        id: pathId(ctx),
        read: input.read,
      });
      ctx.body = { success: true, message: input.read ? 'Marked read' : 'Marked unread', contactMessage };
    }),
  );
}
