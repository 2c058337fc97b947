import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { norenLoginFrame, norenOrderSubscription, norenToken, norenTouchline, readNorenFrame } from './noren';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('the NOREN socket frames', () => {
  it('logs in with the double SHA-256 of the session, as <userId>_API from source API', () => {
    expect(norenToken('sess')).toBe(sha(sha('sess')));
    expect(JSON.parse(norenLoginFrame('AB123', 'sess'))).toEqual({
      t: 'c',
      uid: 'AB123_API',
      actid: 'AB123_API',
      susertoken: sha(sha('sess')),
      source: 'API',
    });
  });

  it('subscribes keys joined by #, and the account orders', () => {
    expect(JSON.parse(norenTouchline('subscribe', ['NSE|26000', 'NFO|45001']))).toEqual({
      t: 't',
      k: 'NSE|26000#NFO|45001',
    });
    expect(JSON.parse(norenTouchline('unsubscribe', ['NFO|45001']))).toEqual({ t: 'u', k: 'NFO|45001' });
    expect(JSON.parse(norenOrderSubscription('AB123'))).toEqual({ t: 'o', actid: 'AB123_API' });
  });

  it('reads the login answer, prices and order messages; anything else is other', () => {
    expect(readNorenFrame('{"t":"ck","s":"OK","uid":"AB123_API"}')).toEqual({ kind: 'login', ok: true });
    expect(readNorenFrame('{"t":"ck","s":"Not_Ok"}')).toEqual({ kind: 'login', ok: false });
    expect(readNorenFrame('{"t":"tk","e":"NSE","tk":"26000","lp":"24012.35"}')).toMatchObject({
      kind: 'price',
      key: 'NSE|26000',
      ltp: 24012.35,
    });
    expect(readNorenFrame('{"t":"tf","e":"NFO","tk":"45001","bp1":"120.05"}')).toMatchObject({
      kind: 'price',
      key: 'NFO|45001',
      ltp: undefined,
      bid: 120.05,
    });
    const order = readNorenFrame(
      '{"t":"om","norenordno":"231126000001","status":"COMPLETE","fillshares":"65","avgprc":"120.00","remarks":"OPAL0"}',
    );
    expect(order).toMatchObject({
      kind: 'order',
      row: { Nstordno: '231126000001', Status: 'COMPLETE', Fillshares: 65, Avgprc: 120 },
    });
    expect(readNorenFrame('{"t":"ok"}')).toEqual({ kind: 'orders' });
    expect(readNorenFrame('not json')).toEqual({ kind: 'other' });
    expect(readNorenFrame('{"t":"h"}')).toEqual({ kind: 'other' });
    expect(readNorenFrame('{"t":"tk","lp":"1"}')).toEqual({ kind: 'other' });
  });
});
