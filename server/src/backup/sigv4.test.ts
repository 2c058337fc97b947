import { describe, expect, it } from 'vitest';
import { EMPTY_SHA256, canonicalQuery, signRequest, uriEncode } from './sigv4';

// The examples of AWS's "Signature Calculations for the Authorization Header (AWS Signature Version 4)" page for
// S3, with its published example keys and expected signatures.
const KEYS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
};
const AT = new Date('2013-05-24T00:00:00Z');

describe('signRequest', () => {
  it('matches the PUT Object example (a body hash, extra headers signed)', () => {
    const headers = signRequest(
      {
        method: 'PUT',
        path: '/test%24file.text',
        host: 'examplebucket.s3.amazonaws.com',
        headers: { date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
        payloadSha256: '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
        at: AT,
      },
      KEYS,
    );
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, ' +
        'Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
    expect(headers['x-amz-content-sha256']).toBe(
      '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
    );
    expect(headers.host).toBeUndefined();
  });

  it('matches the GET Bucket (List Objects) example, query parameters included', () => {
    const headers = signRequest(
      {
        method: 'GET',
        path: '/',
        query: { prefix: 'J', 'max-keys': '2' },
        host: 'examplebucket.s3.amazonaws.com',
        payloadSha256: EMPTY_SHA256,
        at: AT,
      },
      KEYS,
    );
    expect(headers.authorization).toMatch(
      /Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/,
    );
  });
});

describe('canonical encoding', () => {
  it('encodes every reserved character, sorts by key, and leaves unreserved ones alone', () => {
    expect(uriEncode("a b+c/d~e_f.g-h!*'()")).toBe('a%20b%2Bc%2Fd~e_f.g-h%21%2A%27%28%29');
    expect(canonicalQuery({ prefix: 'x/y', 'list-type': '2', 'continuation-token': 'a=b' })).toBe(
      'continuation-token=a%3Db&list-type=2&prefix=x%2Fy',
    );
  });
});
