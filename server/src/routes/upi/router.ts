// UPI payments outside /api/admin: the settings every signed-in user reads (admins write them), the QR image, the
// trader's payment requests and their screenshots. Images are served with their detected type only.
import { Router } from '@koa/router';
import { z } from 'zod';
import type { UpiPaymentInfoDto, UpiRequestResponse, UpiSettingsResponse } from '../../contract';
import { upiRequestSchema, upiSettingsSchema } from '../../contract';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { findPaymentRequest } from '../../db';
import { authorize } from '../../policies';
import { can, requireAuth } from '../../middleware/auth';
import { authOf, type AppState, type RouteContext } from '../../middleware/context';
import { withBody } from '../../middleware/validate';
import {
  imageFromDataUrl,
  imageHeaders,
  readImageBody,
  readUpload,
  type CheckedImage,
} from '../../services/admin/images';
import { presentUpiSettings, saveUpi, upiQrImage } from '../../services/admin/upiSettings';
import { getBankDetails, getUpiSettings } from '../../db';
import { presentBankDetails } from '../../services/admin/bankDetails';
import { attachScreenshot, createUpiRequest, upiPaymentInfo } from '../../services/upiPayments';
import { pathId, queryOf } from '../admin/shared';
import { canOnOwnRecord } from '../user/access';

const planQuerySchema = z.object({ planCode: z.string().trim().min(1).max(40).optional() });

function sendImage(ctx: RouteContext, image: CheckedImage): void {
  ctx.set(imageHeaders(image.type));
  ctx.body = image.bytes;
}

/** The raw image body of a PUT; a JSON body here is a mistake worth naming. */
async function rawImage(ctx: RouteContext, field: string): Promise<CheckedImage> {
  if (ctx.is('application/json'))
    throw new AppError('invalid_image', {
      message: `${field}: send the image file itself as the body, not JSON.`,
      field,
    });
  return readImageBody(ctx.req, field);
}

/** Routes of UPI payments, mounted under /api. */
export function upiRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>();
  const signedIn = requireAuth(deps);

  router.get('/upi-settings', signedIn, can('upi-settings:read'), async (ctx) => {
    ctx.body = presentUpiSettings(await getUpiSettings(deps.db.knex));
  });

  router.post(
    '/upi-settings',
    signedIn,
    can('upi-settings:update'),
    withBody(upiSettingsSchema, async (ctx, input) => {
      const qr =
        input.qrCodeImage === undefined
          ? undefined
          : input.qrCodeImage === null
            ? null
            : imageFromDataUrl(input.qrCodeImage, 'qrCodeImage');
      const settings = await saveUpi({ deps, adminId: authOf(ctx).user.id, fields: input, qr });
      const body: UpiSettingsResponse = { success: true, message: 'UPI Settings Updated', settings };
      ctx.body = body;
    }),
  );

  // Bank transfer details sit beside the UPI ones: the same readers, written by admins under /api/admin.
  router.get('/bank-details', signedIn, can('upi-settings:read'), async (ctx) => {
    ctx.body = presentBankDetails(await getBankDetails(deps.db.knex));
  });

  router.get('/upi-settings/qr', signedIn, can('upi-settings:read'), async (ctx) => {
    sendImage(ctx, await upiQrImage(deps));
  });

  router.put('/upi-settings/qr', signedIn, can('upi-settings:update'), async (ctx) => {
    const qr = await rawImage(ctx, 'qrCodeImage');
    const settings = await saveUpi({ deps, adminId: authOf(ctx).user.id, fields: null, qr });
    const body: UpiSettingsResponse = { success: true, message: 'UPI QR code updated', settings };
    ctx.body = body;
  });

  router.get('/payment/upi-request', signedIn, canOnOwnRecord('payment-request:read'), async (ctx) => {
    const { planCode } = queryOf(ctx, planQuerySchema);
    const body: UpiPaymentInfoDto = await upiPaymentInfo({
      deps,
      userId: authOf(ctx).user.id,
      ...(planCode ? { planCode } : {}),
    });
    ctx.body = body;
  });

  router.post(
    '/payment/upi-request',
    signedIn,
    canOnOwnRecord('payment:create'),
    withBody(upiRequestSchema, async (ctx, input) => {
      const request = await createUpiRequest({ deps, userId: authOf(ctx).user.id, input });
      const body: UpiRequestResponse = {
        success: true,
        message: 'Payment submitted. It is under review; your subscription starts once an admin confirms it.',
        request,
      };
      ctx.status = 201;
      ctx.body = body;
    }),
  );

  router.get('/payment-requests/:id/screenshot', signedIn, async (ctx) => {
    const { user } = authOf(ctx);
    const request = await findPaymentRequest(deps.db.knex, pathId(ctx));
    // Someone else's request is indistinguishable from a missing one.
    if (!request || (!user.is_admin && request.user_id !== user.id)) throw new AppError('not_found');
    authorize({ id: user.id, isAdmin: user.is_admin }, 'payment-request:read', { ownerId: request.user_id });
    if (!request.screenshot_path) throw new AppError('not_found', { message: 'No screenshot was attached.' });
    sendImage(ctx, await readUpload(deps.config.dataDir, request.screenshot_path));
  });

  router.put('/payment-requests/:id/screenshot', signedIn, async (ctx) => {
    const { user } = authOf(ctx);
    const id = pathId(ctx);
    const existing = await findPaymentRequest(deps.db.knex, id);
    if (!existing || existing.user_id !== user.id) throw new AppError('not_found');
    authorize({ id: user.id, isAdmin: user.is_admin }, 'payment-request:update', {
      ownerId: existing.user_id,
    });
    const image = await rawImage(ctx, 'paymentScreenshot');
    const request = await attachScreenshot({ deps, userId: user.id, id, image });
    const body: UpiRequestResponse = { success: true, message: 'Screenshot attached', request };
    ctx.body = body;
  });

  return router;
}
