import { describe, expect, it } from 'vitest';
import { KitePostbackHub, postbackChecksum } from './postbacks';
import type { KitePostback } from './wire';
import { signedPostback, TEST_KITE_APP } from '../../../../test/fakes/kite/fixtures';

const secret = TEST_KITE_APP.apiSecret;
const postback = signedPostback;

describe('KitePostbackHub', () => {
  it('checksums order_id + order_timestamp + api_secret', () => {
    // sha256("abc")
    expect(postbackChecksum('a', 'b', 'c')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('delivers a correctly signed postback to the registered user only', () => {
    const hub = new KitePostbackHub();
    const got: KitePostback[] = [];
    hub.register('AB1234', { apiSecret: secret, deliver: (p) => got.push(p) });
    expect(hub.receive(postback())).toBe('delivered');
    expect(got.map((p) => p.order_id)).toEqual(['251124000000001']);
    expect(hub.receive(postback({ user_id: 'ZZ9999' }))).toBe('unknown_user');
  });

  it('refuses a wrong checksum, a tampered field and a malformed body, delivering nothing', () => {
    const hub = new KitePostbackHub();
    const got: KitePostback[] = [];
    hub.register('AB1234', { apiSecret: secret, deliver: (p) => got.push(p) });
    expect(hub.receive(postback({ checksum: 'f'.repeat(64) }))).toBe('bad_checksum');
    expect(hub.receive(postback({ order_timestamp: '2026-11-24 09:20:06' }))).toBe('bad_checksum');
    expect(hub.receive({ user_id: 'AB1234' })).toBe('invalid');
    expect(hub.receive('nope')).toBe('invalid');
    expect(got).toEqual([]);
  });

  it('unregisters only its own receiver', () => {
    const hub = new KitePostbackHub();
    const first = hub.register('AB1234', { apiSecret: secret, deliver: () => undefined });
    hub.register('AB1234', { apiSecret: secret, deliver: () => undefined });
    first();
    expect(hub.receive(postback())).toBe('delivered');
  });
});
