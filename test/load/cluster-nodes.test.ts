// The cluster phase's setup checks (cluster-nodes.ts): a server that does not answer is named in a SetupError
// (exit 2), a password in its URL is not printed, and a node's role is read from its health detail.
import { createServer, type Server } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkClusterServers, redactUrl, roleFromHealth, SetupError } from './cluster-nodes';

/** A port nothing listens on: bound, read, closed. */
async function closedPort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

describe('checkClusterServers', () => {
  let port = 0;
  beforeAll(async () => {
    port = await closedPort();
  });

  it('names both servers, with the reason, when neither answers', async () => {
    const check = checkClusterServers({
      databaseServerUrl: `postgres://bench:pg-secret@127.0.0.1:${port}/test`,
      redisUrl: `redis://:redis-secret@127.0.0.1:${port}`,
    });
    await expect(check).rejects.toBeInstanceOf(SetupError);
    const message = await check.catch((err: unknown) => (err instanceof Error ? err.message : ''));
    expect(message).toContain(`PostgreSQL at postgres://bench:***@127.0.0.1:${port}/test is unreachable`);
    expect(message).toContain(`Redis at redis://:***@127.0.0.1:${port} is unreachable (connect ECONNREFUSED`);
    expect(message).not.toMatch(/pg-secret|redis-secret/);
  });
});

describe('reading a node', () => {
  it('redacts a password and keeps the rest of the URL', () => {
    expect(redactUrl('redis://user:pw@cache:6380/2')).toBe('redis://user:***@cache:6380/2');
    expect(redactUrl('postgres://postgres@127.0.0.1:5432/test')).toBe(
      'postgres://postgres@127.0.0.1:5432/test',
    );
    expect(redactUrl('not a url')).toBe('(an unparsable URL)');
  });

  it("takes a node's role from the engine's health detail", () => {
    expect(roleFromHealth('0 open position(s), trading')).toBe('leader');
    expect(roleFromHealth('follower: another node runs the engine')).toBe('follower');
    expect(roleFromHealth('not running')).toBe('unknown');
    expect(roleFromHealth('')).toBe('unknown');
  });
});
