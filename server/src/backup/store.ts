// Where archives are kept: a local folder (ideally another disk, or one synced off the machine) or an
// S3-compatible bucket, and the retention rule that prunes the oldest. Archives are named by their UTC time, so
// name order is age order, and only names of that exact form are ever listed or deleted.
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BackupError } from './errors';
import { EMPTY_SHA256, canonicalQuery, signRequest, uriEncode, type SigningKeys } from './sigv4';

export const ARCHIVE_SUFFIX = '.opbackup';
const ARCHIVE_NAME = /^optionpilot-\d{8}T\d{6}Z\.opbackup$/;

/** `optionpilot-20261123T214500Z.opbackup`: sorts by time, and nothing in it that a shell or a bucket minds. */
export function archiveName(at: number): string {
  return `optionpilot-${new Date(at).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z${ARCHIVE_SUFFIX}`;
}

export interface ArchiveStore {
  /** where `name` lives, for messages and backups-state.json (`/backups/x.opbackup`, `s3://bucket/prefix/x…`) */
  locate(name: string): string;
  put(name: string, file: string, sha256: string): Promise<void>;
  /** archive names, oldest first */
  list(): Promise<string[]>;
  download(name: string, file: string): Promise<void>;
  remove(name: string): Promise<void>;
}

export interface S3Settings extends SigningKeys {
  /** `https://s3.eu-central-1.amazonaws.com`, `https://<account>.r2.cloudflarestorage.com`, `http://127.0.0.1:9000` */
  endpoint: string;
}

/** The store `to` names: `s3://bucket/prefix` (needs `s3`) or a folder. */
export function openStore(to: string, s3: S3Settings | undefined): ArchiveStore {
  if (to.startsWith('s3://')) {
    const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([A-Za-z0-9._/-]*))?$/.exec(to);
    if (!match) throw new BackupError(`--to ${to}: expected s3://bucket or s3://bucket/prefix`);
    if (!s3) {
      throw new BackupError(
        'an s3:// destination needs BACKUP_S3_ENDPOINT, BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY',
      );
    }
    const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
    return s3Store(s3, match[1] as string, prefix === '' ? '' : `${prefix}/`);
  }
  return folderStore(resolve(to));
}

function checkName(name: string): string {
  if (!ARCHIVE_NAME.test(name)) throw new BackupError(`${name} is not a backup archive name`);
  return name;
}

function folderStore(dir: string): ArchiveStore {
  return {
    locate: (name) => join(dir, name),
    async put(name, file) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Copied under a temporary name and renamed: a crash never leaves a half archive under a real name.
      const part = join(dir, `.${checkName(name)}.part`);
      await copyFile(file, part);
      await rename(part, join(dir, name));
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      return names.filter((n) => ARCHIVE_NAME.test(n)).sort();
    },
    async download(name, file) {
      await copyFile(join(dir, checkName(name)), file);
    },
    async remove(name) {
      await rm(join(dir, checkName(name)));
    },
  };
}

interface S3Call {
  method: 'GET' | 'PUT' | 'DELETE';
  key?: string;
  query?: Record<string, string>;
  /** a file to send as the body, with its SHA-256 */
  body?: { file: string; sha256: string };
}

function s3Store(settings: S3Settings, bucket: string, prefix: string): ArchiveStore {
  const endpoint = new URL(settings.endpoint);
  const base = endpoint.pathname.replace(/\/+$/, '');
  const send = endpoint.protocol === 'https:' ? httpsRequest : httpRequest;

  /** One signed path-style request; resolves with the response (status checked by the caller). */
  async function call({ method, key, query, body }: S3Call): Promise<IncomingMessage> {
    const path = `${base}/${bucket}${key === undefined ? '' : `/${key.split('/').map(uriEncode).join('/')}`}`;
    const headers: Record<string, string> = body
      ? { 'content-length': String((await stat(body.file)).size) }
      : {};
    const signed = signRequest(
      {
        method,
        path,
        query,
        headers,
        host: endpoint.host,
        payloadSha256: body?.sha256 ?? EMPTY_SHA256,
        at: new Date(),
      },
      settings,
    );
    const search = canonicalQuery(query);
    return new Promise((done, fail) => {
      const req = send(
        {
          ...endpointOptions(endpoint),
          method,
          path: search === '' ? path : `${path}?${search}`,
          headers: signed,
        },
        done,
      );
      req.on('error', (err) => fail(new BackupError(`S3 ${method} failed: ${err.message}`)));
      if (body) createReadStream(body.file).on('error', fail).pipe(req);
      else req.end();
    });
  }

  async function expectOk(response: IncomingMessage, what: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) {
      const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? '';
      throw new BackupError(`S3 ${what} answered ${status}${code === '' ? '' : ` ${code}`}`);
    }
    return text;
  }

  return {
    locate: (name) => `s3://${bucket}/${prefix}${name}`,
    async put(name, file, sha256) {
      await expectOk(
        await call({ method: 'PUT', key: prefix + checkName(name), body: { file, sha256 } }),
        `PUT ${name}`,
      );
    },
    async list() {
      const names: string[] = [];
      let token: string | undefined;
      do {
        const query: Record<string, string> = { 'list-type': '2', prefix };
        if (token !== undefined) query['continuation-token'] = token;
        const xml = await expectOk(await call({ method: 'GET', query }), 'list');
        for (const [, key] of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) {
          const name = unescapeXml(key as string).slice(prefix.length);
          if (ARCHIVE_NAME.test(name)) names.push(name);
        }
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
          ? unescapeXml(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '')
          : undefined;
      } while (token !== undefined && token !== '');
      return names.sort();
    },
    async download(name, file) {
      const response = await call({ method: 'GET', key: prefix + checkName(name) });
      if (response.statusCode !== 200) await expectOk(response, `GET ${name}`);
      await pipeline(response, createWriteStream(file, { mode: 0o600 }));
    },
    async remove(name) {
      await expectOk(await call({ method: 'DELETE', key: prefix + checkName(name) }), `DELETE ${name}`);
    },
  };
}

function endpointOptions(endpoint: URL) {
  return { protocol: endpoint.protocol, hostname: endpoint.hostname, port: endpoint.port || undefined };
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Deletes all but the newest `keep` archives (0 keeps all); returns the names removed. */
export async function prune(store: ArchiveStore, keep: number): Promise<string[]> {
  if (keep <= 0) return [];
  const names = await store.list();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) await store.remove(name);
  return old;
}

/**
 * A local path to the archive `ref` names: a file as is, or `s3://bucket/prefix/<name>` downloaded into `dir`.
 * Without `ref`, the newest archive at `from` (a folder or s3:// destination).
 */
export async function fetchArchive(
  ref: string | undefined,
  from: string | undefined,
  s3: S3Settings | undefined,
  dir: string,
): Promise<string> {
  if (ref !== undefined && !ref.startsWith('s3://')) return resolve(ref);
  let store: ArchiveStore;
  let name: string;
  if (ref !== undefined) {
    const slash = ref.lastIndexOf('/');
    store = openStore(ref.slice(0, slash), s3);
    name = ref.slice(slash + 1);
  } else {
    if (from === undefined)
      throw new BackupError('name an archive, or where to find the newest: --from or BACKUP_DIR');
    store = openStore(from, s3);
    const newest = (await store.list()).at(-1);
    if (newest === undefined) throw new BackupError(`no archives at ${from}`);
    name = newest;
    if (!from.startsWith('s3://')) return store.locate(name);
  }
  const file = join(dir, checkName(name));
  await store.download(name, file);
  return file;
}
