import { describe, expect, it } from 'vitest';
import { createEmailChannel } from '../../server/src/notifications/channels/email';
import { createLogger } from '../../server/src/logger';
import { startSmtpFakeProcess } from './smtpFakeProcess';

describe('startSmtpFakeProcess', () => {
  it('receives what the e-mail channel sends, in a process of its own, and reports it', async () => {
    const smtp = await startSmtpFakeProcess();
    const channel = createEmailChannel({
      smtpUrl: smtp.url,
      from: 'no-reply@app.example.in',
      publicUrl: 'https://app.example.in',
      operator: {
        legalName: 'Desk Analytics Private Limited',
        address: '4 Residency Road, Bengaluru 560025',
      },
      maxConnections: 2,
      logger: createLogger({ level: 'silent' }),
    });
    try {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          channel.deliver(
            {
              userId: i,
              email: `trader${i}@example.in`,
              name: '',
              unsubscribeUrl: 'https://app.example.in/u',
            },
            {
              outboxId: i,
              event: 'trade_opened',
              title: `Trade opened #${i}`,
              text: 'Bought 65 NIFTY 24000 CE at ₹112.50',
              html: '<p>Bought 65 NIFTY 24000 CE at ₹112.50</p>',
              path: '/dashboard',
              essential: false,
            },
          ),
        ),
      );
      const stats = await smtp.waitForAccepted(10);
      expect(stats.accepted).toBe(10);
      expect([...stats.recipients].sort()).toEqual(
        Array.from({ length: 10 }, (_, i) => `trader${i}@example.in`).sort(),
      );
      expect(stats.connections).toBeLessThanOrEqual(2);
      expect(stats.lastAt).toBeGreaterThanOrEqual(stats.firstAt);
      expect(stats.firstAt).toBeGreaterThan(0);
    } finally {
      await channel.close();
      await smtp.close();
    }
  }, 60_000);
});
