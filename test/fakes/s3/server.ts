// A small fake of an S3-compatible object store on 127.0.0.1, speaking the REST wire format in path style
// (`/<bucket>/<key>`): PutObject, GetObject, DeleteObject and ListObjectsV2 (`?list-type=2&prefix=…`, paged with
// continuation tokens), with S3's XML error bodies. Every request must carry a valid Signature Version 4
// Authorization header for the fake's key pair (403 SignatureDoesNotMatch otherwise), and a PUT body must match its
// x-amz-content-sha256 (400 XAmzContentSHA256Mismatch), as on AWS. Objects live in memory.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRequest } from '../../../server/src/backup/sigv4';

export interface FakeS3Options {
  buckets?: string[];
  /** ListObjectsV2 page size (S3's is 1000); small values exercise paging */
  pageSize?: number;
  region?: string;
}

export interface FakeS3 {
  /** the endpoint (BACKUP_S3_ENDPOINT), e.g. http://127.0.0.1:40123 */
  url: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** bucket → key → bytes */
  objects: Map<string, Map<string, Buffer>>;
  /** every request: method, path and status */
  requests: Array<{ method: string; path: string; status: number }>;
  close(): Promise<void>;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function startFakeS3(options: FakeS3Options = {}): Promise<FakeS3> {
  const region = options.region ?? 'us-east-1';
  const accessKeyId = 'AKIAFAKES3EXAMPLE';
  const secretAccessKey = 'fake/secret/key/for/tests/only/0123456789';
  const objects = new Map((options.buckets ?? ['backups']).map((b) => [b, new Map<string, Buffer>()]));
  const requests: FakeS3['requests'] = [];
  const pageSize = options.pageSize ?? 1000;

  function signatureValid(req: IncomingMessage, path: string, query: URLSearchParams): boolean {
    const auth = req.headers.authorization ?? '';
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([^/]+)\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=[0-9a-f]{64}$/.exec(
        auth,
      );
    if (!match || match[1] !== accessKeyId || match[2] !== region) return false;
    const date = String(req.headers['x-amz-date'] ?? '');
    const at = new Date(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    if (Number.isNaN(at.getTime())) return false;
    const extra: Record<string, string> = {};
    for (const name of (match[3] as string).split(';')) {
      if (name !== 'host' && name !== 'x-amz-date' && name !== 'x-amz-content-sha256') {
        extra[name] = String(req.headers[name] ?? '');
      }
    }
    const expected = signRequest(
      {
        method: req.method ?? '',
        path,
        query: Object.fromEntries(query),
        headers: extra,
        host: String(req.headers.host ?? ''),
        payloadSha256: String(req.headers['x-amz-content-sha256'] ?? ''),
        at,
      },
      { accessKeyId, secretAccessKey, region },
    );
    return expected.authorization === auth;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const [rawPath = '/', search = ''] = (req.url ?? '/').split('?', 2);
    const query = new URLSearchParams(search);
    const fail = (status: number, code: string) => {
      res.writeHead(status, { 'content-type': 'application/xml' });
      res.end(xml(`<Error><Code>${code}</Code><Message>${code}</Message></Error>`));
      return status;
    };
    if (!signatureValid(req, rawPath, query)) return fail(403, 'SignatureDoesNotMatch');
    const [, bucketName = '', ...keyParts] = rawPath.split('/');
    const bucket = objects.get(bucketName);
    if (!bucket) return fail(404, 'NoSuchBucket');
    const key = keyParts.map(decodeURIComponent).join('/');

    if (key === '' && req.method === 'GET' && query.get('list-type') === '2') {
      const prefix = query.get('prefix') ?? '';
      const after = query.get('continuation-token') ?? '';
      const keys = [...bucket.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
      const page = keys.slice(0, pageSize);
      const truncated = keys.length > page.length;
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        xml(
          `<ListBucketResult><Name>${bucketName}</Name><Prefix>${escape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>` +
            `<IsTruncated>${truncated}</IsTruncated>` +
            (truncated ? `<NextContinuationToken>${escape(page.at(-1) ?? '')}</NextContinuationToken>` : '') +
            page
              .map(
                (k) =>
                  `<Contents><Key>${escape(k)}</Key><Size>${bucket.get(k)?.length ?? 0}</Size></Contents>`,
              )
              .join('') +
            '</ListBucketResult>',
        ),
      );
      return 200;
    }
    if (key === '') return fail(400, 'InvalidRequest');
    if (req.method === 'PUT') {
      const declared = String(req.headers['x-amz-content-sha256'] ?? '');
      if (declared !== 'UNSIGNED-PAYLOAD' && declared !== createHash('sha256').update(body).digest('hex')) {
        return fail(400, 'XAmzContentSHA256Mismatch');
      }
      bucket.set(key, body);
      res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` }).end();
      return 200;
    }
    if (req.method === 'GET') {
      const object = bucket.get(key);
      if (!object) return fail(404, 'NoSuchKey');
      res.writeHead(200, { 'content-length': object.length }).end(object);
      return 200;
    }
    if (req.method === 'DELETE') {
      bucket.delete(key);
      res.writeHead(204).end();
      return 204;
    }
    return fail(405, 'MethodNotAllowed');
  }

  const server = createServer((req, res) => {
    handle(req, res).then(
      (status) => requests.push({ method: req.method ?? '', path: req.url ?? '', status }),
      () => res.destroy(),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accessKeyId,
    secretAccessKey,
    region,
    objects,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
