import { testDialects } from '../../db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SubscriptionDto } from '../../contract';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';
import { startTestServer, type TestServer } from '../../testing/server';
import { connected, openSocket, type TestSocket } from '../../testing/socket';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(40, 7),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(40, 3)]);
const TEXT = Buffer.from('this is a text file renamed to qr.png, not an image at all');
const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

async function raw(t: TestServer, method: string, path: string, token: string, body: Buffer, type: string) {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    body,
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as Record<string, unknown> };
}

describe.each(testDialects())('UPI settings and payment requests (%s)', (dialect) => {
  let t: TestServer;
  let admin: Caller;
  let trader: Caller;
  let other: Caller;
  beforeAll(async () => {
    t = await startTestServer({ dialect });
    admin = await signInFirstAdmin(t);
    trader = await registerTrader(t, 'upi1');
    other = await registerTrader(t, 'upi2');
  });
  afterAll(async () => {
    await t.close();
  });

  describe('/api/upi-settings', () => {
    it('401 without a token, 403 for a trader writing, 400 naming the field for a bad UPI id', async () => {
      expect((await t.request('GET', '/api/upi-settings')).status).toBe(401);
      const asTrader = await t.request('POST', '/api/upi-settings', {
        token: trader.token,
        body: { upiId: 'shop@okicici', accountHolderName: 'Shop' },
      });
      expect(asTrader.status).toBe(403);
      const bad = await t.request('POST', '/api/upi-settings', {
        token: admin.token,
        body: { upiId: 'not-an-upi-id', accountHolderName: 'Shop' },
      });
      expect(bad.status).toBe(400);
      expect(bad.json.field).toBe('upiId');
      expect((await t.request('GET', '/api/upi-settings', { token: trader.token })).json.configured).toBe(
        false,
      );
    });

    it('refuses a text file labelled image/png, as a data URL and as a raw upload', async () => {
      const asDataUrl = await t.request('POST', '/api/upi-settings', {
        token: admin.token,
        body: { upiId: 'shop@okicici', accountHolderName: 'Shop', qrCodeImage: dataUrl(TEXT) },
      });
      expect(asDataUrl.status).toBe(400);
      expect(asDataUrl.json.error).toBe('invalid_image');
      expect(asDataUrl.json.field).toBe('qrCodeImage');
      // Nothing was saved by the refused request.
      expect((await t.request('GET', '/api/upi-settings', { token: admin.token })).json.configured).toBe(
        false,
      );
    });

    it('saves id, holder and QR for admins (audited); traders read them and get the image with its real type', async () => {
      const res = await t.request('POST', '/api/upi-settings', {
        token: admin.token,
        // The label says JPEG; the bytes are PNG, and the bytes decide.
        body: {
          upiId: 'optionpilot@okicici',
          accountHolderName: 'OptionPilot Tech',
          qrCodeImage: dataUrl(PNG, 'image/jpeg'),
        },
      });
      expect(res.status).toBe(200);
      const read = await t.request('GET', '/api/upi-settings', { token: trader.token });
      expect(read.json).toMatchObject({
        configured: true,
        upiId: 'optionpilot@okicici',
        accountHolderName: 'OptionPilot Tech',
      });
      const qr = await fetch(`${t.url}/api/upi-settings/qr`, {
        headers: { authorization: `Bearer ${trader.token}` },
      });
      expect(qr.status).toBe(200);
      expect(qr.headers.get('content-type')).toBe('image/png');
      expect(qr.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await qr.arrayBuffer()).equals(PNG)).toBe(true);
      const log = await t.server.deps.db
        .knex('logs')
        .where('description', 'like', 'UPI settings updated%')
        .first();
      expect(log).toBeDefined();
    });

    it('replaces the QR from a raw upload; refuses text and files over 1 MB', async () => {
      const text = await raw(t, 'PUT', '/api/upi-settings/qr', admin.token, TEXT, 'image/png');
      expect(text.status).toBe(400);
      const big = await raw(
        t,
        'PUT',
        '/api/upi-settings/qr',
        admin.token,
        Buffer.concat([JPEG, Buffer.alloc(1_048_600)]),
        'image/jpeg',
      );
      expect(big.status).toBe(413);
      const ok = await raw(t, 'PUT', '/api/upi-settings/qr', admin.token, JPEG, 'application/octet-stream');
      expect(ok.status).toBe(200);
      const qr = await fetch(`${t.url}/api/upi-settings/qr`, {
        headers: { authorization: `Bearer ${trader.token}` },
      });
      expect(qr.headers.get('content-type')).toBe('image/jpeg');
      expect((await raw(t, 'PUT', '/api/upi-settings/qr', trader.token, JPEG, 'image/jpeg')).status).toBe(
        403,
      );
    });
  });

  describe('trader requests and the admin review', () => {
    let requestId: number;

    it('prices the payment from the plan with GST, ignoring anything the browser sends', async () => {
      const info = await t.request('GET', '/api/payment/upi-request', { token: trader.token });
      expect(info.status).toBe(200);
      expect(info.json).toMatchObject({ amountPaise: 589_882, pending: false, requests: [] });
      expect((await t.request('GET', '/api/payment/upi-request')).status).toBe(401);
    });

    it('needs a 12-digit UTR and refuses a second pending request and a used UTR', async () => {
      const bad = await t.request('POST', '/api/payment/upi-request', {
        token: trader.token,
        body: { utrNumber: '12345' },
      });
      expect(bad.status).toBe(400);
      expect(bad.json.field).toBe('utrNumber');
      const res = await t.request('POST', '/api/payment/upi-request', {
        token: trader.token,
        body: { utrNumber: '412345678901', amount: 1 },
      });
      expect(res.status).toBe(201);
      const request = res.json.request as { id: number; amountPaise: number; status: string };
      expect(request).toMatchObject({ amountPaise: 589_882, status: 'pending' });
      requestId = request.id;
      const second = await t.request('POST', '/api/payment/upi-request', {
        token: trader.token,
        body: { utrNumber: '412345678902' },
      });
      expect(second.status).toBe(409);
      expect(second.json.error).toBe('payment_request_pending');
      const reused = await t.request('POST', '/api/payment/upi-request', {
        token: other.token,
        body: { utrNumber: '412345678901' },
      });
      expect(reused.status).toBe(409);
      expect(reused.json.error).toBe('utr_used');
      // The admins are told once, by a notice committed with the request; the refused ones recorded none.
      const notices = (await t.server.deps.db
        .knex('notification_outbox')
        .where({ event: 'upi_review' })
        .select('user_id', 'payload')) as Array<{ user_id: number; payload: string }>;
      expect(notices.map((n) => n.user_id)).toEqual([admin.id]);
      expect(JSON.parse(notices[0]!.payload)).toMatchObject({
        requestId,
        amountPaise: 589_882,
        utr: '412345678901',
      });
      expect((await t.request('GET', '/api/payment/upi-request', { token: trader.token })).json.pending).toBe(
        true,
      );
    });

    it('lets the owner attach a screenshot that the owner and admins can see, nobody else', async () => {
      expect(
        (await raw(t, 'PUT', `/api/payment-requests/${requestId}/screenshot`, other.token, PNG, 'image/png'))
          .status,
      ).toBe(404);
      expect(
        (
          await raw(
            t,
            'PUT',
            `/api/payment-requests/${requestId}/screenshot`,
            trader.token,
            TEXT,
            'image/png',
          )
        ).status,
      ).toBe(400);
      const put = await raw(
        t,
        'PUT',
        `/api/payment-requests/${requestId}/screenshot`,
        trader.token,
        PNG,
        'image/png',
      );
      expect(put.status).toBe(200);
      const url = (put.json.request as { paymentScreenshot: string }).paymentScreenshot;
      for (const [caller, status] of [
        [trader, 200],
        [admin, 200],
        [other, 404],
      ] as const) {
        const res = await fetch(`${t.url}${url}`, { headers: { authorization: `Bearer ${caller.token}` } });
        expect(res.status).toBe(status);
        if (status === 200) expect(res.headers.get('content-type')).toBe('image/png');
      }
    });

    it('lists pending requests for admins, filtered on the server', async () => {
      const pending = await t.request('GET', '/api/admin/payment-requests?status=pending', {
        token: admin.token,
      });
      expect(pending.json.total).toBe(1);
      const none = await t.request('GET', '/api/admin/payment-requests?status=rejected', {
        token: admin.token,
      });
      expect(none.json.total).toBe(0);
      const search = await t.request('GET', '/api/admin/payment-requests?search=ashaupi1', {
        token: admin.token,
      });
      expect(search.json.total).toBe(1);
      const bad = await t.request('GET', '/api/admin/payment-requests?status=maybe', { token: admin.token });
      expect(bad.status).toBe(400);
    });

    it('approval activates the subscription in one step, pushes it to the trader and is idempotent', async () => {
      const onUserChanged = vi.spyOn(t.server.deps.trading, 'onUserChanged');
      const socket: TestSocket = await connected(openSocket(t.url, trader.token));
      const pushed = new Promise<SubscriptionDto>((resolve) => socket.once('user:subscription', resolve));
      try {
        const noStatus = await t.request('PATCH', `/api/admin/payment-requests/${requestId}`, {
          token: admin.token,
          body: {},
        });
        expect(noStatus.status).toBe(400);
        expect(noStatus.json.message).toContain('Please select a status for the payment request');

        const res = await t.request('PATCH', `/api/admin/payment-requests/${requestId}`, {
          token: admin.token,
          body: { status: 'approved' },
        });
        expect(res.status).toBe(200);
        expect(res.json.request).toMatchObject({ status: 'approved' });
        expect((await pushed).status).toBe('active');
        expect(onUserChanged).toHaveBeenCalledWith(trader.id);

        const sub = await t.request('GET', '/api/user/subscription', { token: trader.token });
        expect(sub.json.status).toBe('active');
        const payments = await t.server.deps.db.knex('payments').where({ user_id: trader.id });
        expect(payments).toHaveLength(1);
        expect(payments[0]).toMatchObject({
          method: 'upi',
          amount_paise: 589_882,
          payment_request_id: requestId,
        });

        const again = await t.request('PATCH', `/api/admin/payment-requests/${requestId}`, {
          token: admin.token,
          body: { status: 'approved' },
        });
        expect(again.status).toBe(200);
        expect(await t.server.deps.db.knex('payments').where({ user_id: trader.id })).toHaveLength(1);
        const flip = await t.request('PATCH', `/api/admin/payment-requests/${requestId}`, {
          token: admin.token,
          body: { status: 'rejected', adminNotes: 'changed my mind' },
        });
        expect(flip.status).toBe(409);
        const audit = await t.server.deps.db
          .knex('logs')
          .where('description', 'like', `Payment request #${requestId} approved%`);
        expect(audit).toHaveLength(1);
        expect(audit[0].actor_id).toBe(admin.id);
      } finally {
        socket.disconnect();
        onUserChanged.mockRestore();
      }
    });

    it('a rejection needs a note, which the trader then sees; nothing is paid', async () => {
      const created = await t.request('POST', '/api/payment/upi-request', {
        token: other.token,
        body: { utrNumber: '512345678901' },
      });
      const id = (created.json.request as { id: number }).id;
      const noNote = await t.request('PATCH', `/api/admin/payment-requests/${id}`, {
        token: admin.token,
        body: { status: 'rejected' },
      });
      expect(noNote.status).toBe(400);
      expect(noNote.json.field).toBe('adminNotes');
      const res = await t.request('PATCH', `/api/admin/payment-requests/${id}`, {
        token: admin.token,
        body: { status: 'rejected', adminNotes: 'No transfer with this UTR reached our account' },
      });
      expect(res.status).toBe(200);
      const mine = await t.request('GET', '/api/payment/upi-request', { token: other.token });
      expect(mine.json.pending).toBe(false);
      expect((mine.json.requests as Array<{ adminNotes: string }>)[0]?.adminNotes).toBe(
        'No transfer with this UTR reached our account',
      );
      expect(await t.server.deps.db.knex('payments').where({ user_id: other.id })).toHaveLength(0);
      expect((await t.request('GET', '/api/user/subscription', { token: other.token })).json.status).toBe(
        'pending',
      );
    });
  });
});
