import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, publicConfig } from '../../config';
import { assertNoSecrets, startTestServer, type TestServer } from '../../testing/server';

describe('GET /api/config', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('tells the browser it is in payment test mode on a simulated feed, without signing in', async () => {
    t = await startTestServer();
    const res = await t.request('GET', '/api/config');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      version: t.config.version,
      paymentTestMode: true,
      razorpayKeyId: null,
      feed: { kind: 'sim', simulated: true },
      sessionMode: 'always',
      demoAvailable: false,
      operator: {
        legalName: t.config.operator.legalName,
        address: t.config.operator.address,
        stateCode: t.config.operator.stateCode,
        gstin: t.config.operator.gstin,
        supportEmail: t.config.operator.supportEmail,
        supportPhone: t.config.operator.supportPhone,
        supportHours: t.config.operator.supportHours,
      },
    });
  });

  it('says whether the visitors demo runs', async () => {
    t = await startTestServer({ env: { DEMO_ACCOUNT: 'true' } });
    expect((await t.request('GET', '/api/config')).json.demoAvailable).toBe(true);
  });

  it('with Razorpay keys: live payments and the public key id, never the secrets', async () => {
    t = await startTestServer({
      env: {
        RAZORPAY_KEY_ID: 'rzp_test_PublicKey123',
        RAZORPAY_KEY_SECRET: 'keysecretvalue',
        RAZORPAY_WEBHOOK_SECRET: 'webhooksecretvalue',
        SIM_SESSION: 'market',
      },
    });
    const res = await t.request('GET', '/api/config');
    expect(res.json).toMatchObject({
      paymentTestMode: false,
      razorpayKeyId: 'rzp_test_PublicKey123',
      sessionMode: 'market',
    });
    expect(res.text).not.toContain('keysecretvalue');
    expect(res.text).not.toContain('webhooksecretvalue');
    assertNoSecrets(res.text);
  });

  it('names a replay feed as not simulated', () => {
    const config = loadConfig({ FEED: 'replay:/data/nifty-2026-11-20.csv' });
    expect(publicConfig(config).feed).toEqual({ kind: 'replay', simulated: false });
    // The file path stays on the server.
    expect(JSON.stringify(publicConfig(config))).not.toContain('nifty-2026-11-20');
  });
});
