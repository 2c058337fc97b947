// GET /api/plans: public, only the plans on sale, priced with GST, and an admin's change shows at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInFirstAdmin, type Caller } from '../../testing/admin';
import { startTestServer, type TestServer } from '../../testing/server';

describe('GET /api/plans', () => {
  let t: TestServer;
  let admin: Caller;
  beforeAll(async () => {
    t = await startTestServer();
    admin = await signInFirstAdmin(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the plans on sale without a sign-in, GST on the price, in the admin order', async () => {
    const res = await t.request('GET', '/api/plans');
    expect(res.status).toBe(200);
    expect(res.json.plans).toEqual([
      {
        code: 'monthly',
        name: 'Professional Monthly',
        months: 1,
        pricePaise: 499_900,
        gstPaise: 89_982,
        totalPaise: 589_882,
      },
    ]);

    const patched = await t.request('PATCH', '/api/admin/plans/quarterly', {
      token: admin.token,
      body: { active: true, pricePaise: 1_199_900 },
    });
    expect(patched.status).toBe(200);
    const after = await t.request('GET', '/api/plans');
    expect(
      (after.json.plans as Array<{ code: string; totalPaise: number }>).map((p) => [p.code, p.totalPaise]),
    ).toEqual([
      ['monthly', 589_882],
      ['quarterly', 1_415_882],
    ]);
  });
});
