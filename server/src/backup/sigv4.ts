// S3 request signing (AWS Signature Version 4, Authorization-header form) through `aws4`, the small, dependency-free
// signer most Node S3 clients have used for a decade: every S3-compatible store (AWS, MinIO, Backblaze B2,
// Cloudflare R2, Wasabi) accepts it. This module only adapts our request shape to it: the payload's SHA-256 is
// always given (never UNSIGNED-PAYLOAD), the time is the caller's, and header names come back lower-case. The test
// checks the result against the examples in AWS's own S3 documentation.
import aws4 from 'aws4';

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export interface SigningKeys {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface SignableRequest {
  method: string;
  /** URI-encoded path, e.g. `/bucket/optionpilot/optionpilot-20261126T010000Z.opbackup` */
  path: string;
  /** query parameters, unencoded */
  query?: Record<string, string>;
  /** headers to sign besides host, x-amz-date and x-amz-content-sha256 (lower-case names) */
  headers?: Record<string, string>;
  host: string;
  /** hex SHA-256 of the body (EMPTY_SHA256 for none) */
  payloadSha256: string;
  /** the signing time */
  at: Date;
}

/** RFC 3986 encoding of one path segment or query value: everything but unreserved characters. */
export function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `a=1&b=2`, keys and values encoded and sorted by key: the query string sent (and signed). */
export function canonicalQuery(query: Record<string, string> = {}): string {
  return Object.entries(query)
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** The headers to send: the caller's, plus x-amz-date, x-amz-content-sha256 and authorization (no host). */
export function signRequest(request: SignableRequest, keys: SigningKeys): Record<string, string> {
  const search = canonicalQuery(request.query);
  const signed = aws4.sign(
    {
      service: 's3',
      region: keys.region,
      method: request.method,
      host: request.host,
      path: search === '' ? request.path : `${request.path}?${search}`,
      headers: {
        ...request.headers,
        'X-Amz-Date': request.at.toISOString().replace(/[-:]|\.\d{3}/g, ''), // 20130524T000000Z
        'X-Amz-Content-Sha256': request.payloadSha256,
      },
    },
    { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers ?? {})) {
    if (name.toLowerCase() !== 'host') headers[name.toLowerCase()] = String(value);
  }
  return headers;
}
