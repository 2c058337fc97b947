// Notifications on the admin page: the recent deliveries (sent, failed and why) and a test send to the calling
// admin through one channel.
import {
  deliveriesQuerySchema,
  notificationTestSchema,
  type NotificationDeliveriesDto,
  type NotificationTestDto,
} from '../../contract';
import { AppError } from '../../errors';
import { withBody } from '../../middleware/validate';
import { listDeliveries } from '../../notifications/settingsService';
import { CHANNEL_LABELS } from '../../presenters/notifications';
import { adminIdOf, queryOf, type AdminEnv, type AdminRouter } from './shared';

const TEST_MESSAGES: Record<NotificationTestDto['status'], (label: string) => string> = {
  sent: (label) => `Test sent by ${label}: check that it arrived.`,
  no_address: (label) =>
    `${label} has no address for you yet (link Telegram or allow browser notifications first).`,
  failed: (label) => `${label} failed to send the test.`,
};

export function registerNotificationRoutes(router: AdminRouter, env: AdminEnv): void {
  const { deps } = env;

  router.get('/notifications/deliveries', async (ctx) => {
    const body: NotificationDeliveriesDto = await listDeliveries({
      db: deps.db.knex,
      query: queryOf(ctx, deliveriesQuerySchema),
      channels: deps.notifications.channelNames,
    });
    ctx.body = body;
  });

  router.post(
    '/notifications/test',
    withBody(notificationTestSchema, async (ctx, input) => {
      const label = CHANNEL_LABELS[input.channel];
      if (!deps.notifications.channelNames.includes(input.channel)) {
        throw new AppError('notification_channel_unavailable', {
          field: 'channel',
          message: `${label} is not set up on this server.`,
        });
      }
      const result = await deps.notifications.sendTest(adminIdOf(ctx), input.channel);
      const body: NotificationTestDto = { ...result, message: TEST_MESSAGES[result.status](label) };
      ctx.body = body;
    }),
  );
}
