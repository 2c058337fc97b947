// What CI can execute of the deployment (issue 21 item 5) without a VPS: the systemd units pass
// `systemd-analyze verify`, the env example names every variable the server reads and is itself a configuration
// production accepts, and the Dockerfile and compose file stay in step with the repository. Building and running
// the image needs a Docker daemon and the base image: that is `npm run deploy:check-image`, not part of this suite.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { assertProductionReady, envSchema, loadConfig } from '../../server/src/config';
import { backupEnvSchema } from '../../server/src/backup/env';

const ROOT = join(import.meta.dirname, '../..');
const DEPLOY = join(ROOT, 'deploy');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const UNITS = ['optionpilot.service', 'optionpilot-backup.service', 'optionpilot-backup.timer'];

const work = mkdtempSync(join(tmpdir(), 'optionpilot-deploy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `systemd-analyze verify` on `files` in `dir`: its exit code and everything it printed. */
function verify(dir: string, files: string[]): { status: number | null; output: string } {
  const run = spawnSync('/usr/bin/systemd-analyze', ['verify', ...files.map((f) => join(dir, f))], {
    encoding: 'utf8',
  });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}

/** The first executable called `name` on PATH. */
function onPath(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (spawnSync('test', ['-x', candidate]).status === 0) return candidate;
  }
  throw new Error(`${name} is not on PATH`);
}

/** `Key=value` lines of a unit file's section (repeated keys keep every value). */
function directives(unit: string, section: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current = '';
  for (const line of unit.split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) current = header[1] ?? '';
    const kv = /^(\w+)=(.*)$/.exec(line);
    if (kv && current === section) out.set(kv[1] ?? '', [...(out.get(kv[1] ?? '') ?? []), kv[2] ?? '']);
  }
  return out;
}

describe('systemd units', () => {
  // verify checks that ExecStart's binary exists: the units name Debian's /usr/bin/node and /usr/bin/npm, so the copies
  // verified here point at this machine's node and npm when they live elsewhere (nothing else is rewritten).
  const node = process.execPath;
  const npm = onPath('npm');
  for (const unit of UNITS) {
    const text = readFileSync(join(DEPLOY, unit), 'utf8')
      .replaceAll('/usr/bin/node ', `${node} `)
      .replaceAll('/usr/bin/npm ', `${npm} `);
    writeFileSync(join(work, unit), text);
  }

  it('pass systemd-analyze verify without a single message', () => {
    expect(verify(work, UNITS)).toEqual({ status: 0, output: '' });
  });

  it('the verifier really reads them: a misspelt directive is reported', () => {
    const broken = join(work, 'broken');
    spawnSync('mkdir', ['-p', broken]);
    copyFileSync(join(work, 'optionpilot.service'), join(broken, 'optionpilot.service'));
    const text = readFileSync(join(broken, 'optionpilot.service'), 'utf8');
    writeFileSync(
      join(broken, 'optionpilot.service'),
      text.replace(/^ProtectSystem=strict$/m, 'ProtectSytem=strict'),
    );
    expect(verify(broken, ['optionpilot.service']).output).toMatch(
      /Unknown key 'ProtectSytem' in section \[Service\]/,
    );
  });

  it('the service runs the built bundle as its own user, hardened, with DATA_DIR its only writable path', () => {
    const service = directives(read('deploy/optionpilot.service'), 'Service');
    const one = (key: string) => service.get(key)?.join(' ');
    expect(one('ExecStart')).toBe('/usr/bin/node --enable-source-maps /opt/optionpilot/server/dist/main.js');
    // the same bundle `npm start` runs after building it
    expect(read('scripts/start.mjs')).toContain("'server/dist/main.js'");
    expect(one('User')).toBe('optionpilot');
    expect(one('EnvironmentFile')).toBe('/etc/optionpilot/env');
    expect(one('ReadWritePaths')).toBe('/var/lib/optionpilot');
    const env = parseEnv(read('deploy/env.example'));
    expect(env.DATA_DIR).toBe('/var/lib/optionpilot');
    for (const [key, value] of Object.entries({
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      NoNewPrivileges: 'yes',
      CapabilityBoundingSet: '',
      LimitNOFILE: '65536',
      Restart: 'on-failure',
    })) {
      expect(one(key), key).toBe(value);
    }
  });

  it('the backup runs daily with the backup command, its retention and the same env file', () => {
    const service = directives(read('deploy/optionpilot-backup.service'), 'Service');
    expect(service.get('ExecStart')).toEqual([
      '/usr/bin/npm run backup -- --to /var/backups/optionpilot --keep 14',
    ]);
    expect(service.get('EnvironmentFile')).toEqual(['/etc/optionpilot/env']);
    expect(service.get('ReadWritePaths')?.join(' ')).toContain('/var/backups/optionpilot');
    expect(JSON.parse(read('package.json')).scripts.backup).toBeDefined();
    const timer = directives(read('deploy/optionpilot-backup.timer'), 'Timer');
    expect(timer.get('OnCalendar')).toEqual(['*-*-* 02:30:00 Asia/Kolkata']);
    expect(timer.get('Persistent')).toEqual(['yes']);
  });
});

describe('deploy/optionpilot-run', () => {
  it('is an executable sh script that runs commands as the unit does: its user, directory and env file', () => {
    const script = join(DEPLOY, 'optionpilot-run');
    expect(spawnSync('sh', ['-n', script]).status).toBe(0);
    expect(statSync(script).mode & 0o111).toBe(0o111);
    const text = readFileSync(script, 'utf8');
    const service = directives(read('deploy/optionpilot.service'), 'Service');
    expect(text).toContain(`--uid=${service.get('User')?.[0]} `);
    expect(text).toContain(`--working-directory=${service.get('WorkingDirectory')?.[0]} `);
    expect(text).toContain(`--property=EnvironmentFile=${service.get('EnvironmentFile')?.[0]} `);
  });
});

describe('deploy/env.example', () => {
  const text = read('deploy/env.example');
  const mentioned = new Set([...text.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));

  it('mentions every variable server/src/config/schema.ts reads', () => {
    const missing = Object.keys(envSchema.shape).filter((name) => !mentioned.has(name));
    expect(missing).toEqual([]);
  });

  it('mentions every variable the backup command reads', () => {
    const missing = Object.keys(backupEnvSchema.shape).filter((name) => !mentioned.has(name));
    expect(missing).toEqual([]);
  });

  it('mentions nothing the server or the backup command does not read', () => {
    const known = new Set([...Object.keys(envSchema.shape), ...Object.keys(backupEnvSchema.shape)]);
    expect([...mentioned].filter((name) => name !== undefined && !known.has(name))).toEqual([]);
  });

  it('as written, is a configuration production accepts, behind the proxy', () => {
    const config = loadConfig(parseEnv(text));
    expect(() => assertProductionReady(config)).not.toThrow();
    expect(config).toMatchObject({ nodeEnv: 'production', trustProxy: true, host: '127.0.0.1', port: 3000 });
    expect(read('deploy/Caddyfile')).toMatch(/reverse_proxy 127\.0\.0\.1:3000\b/);
  });
});

describe('malloc arenas', () => {
  // One glibc arena: argon2's 19 MiB block per hash otherwise stays in each libuv thread's arena (≈ 77 MB of RSS
  // after four concurrent sign-ins; docs/performance.md, "Memory at 10,000 dashboards").
  it('every way production starts the server, and the live bench that measures it, sets MALLOC_ARENA_MAX=1', () => {
    const service = directives(read('deploy/optionpilot.service'), 'Service');
    expect(service.get('Environment')).toContain('MALLOC_ARENA_MAX=1');
    const runtimeStage =
      read('Dockerfile')
        .split(/^FROM /m)
        .at(-1) ?? '';
    expect(runtimeStage).toMatch(/^ENV (.*\\\n)*\s+MALLOC_ARENA_MAX=1 \\$/m);
    // an operator's own value wins over start.mjs's default
    expect(read('scripts/start.mjs')).toContain("env: { MALLOC_ARENA_MAX: '1', NODE_OPTIONS");
    expect(read('scripts/start.mjs')).toMatch(/NODE_OPTIONS: '[^']*', \.\.\.process\.env \}/);
    expect(read('test/load/servers.ts')).toContain("MALLOC_ARENA_MAX: '1',");
  });
});

describe("V8's old-generation ceiling", () => {
  // Below a 2 GiB old generation V8 lets the heap grow at most 1.3–2× (not 4×) past what its last major GC kept:
  // the RSS peak at 10,000 dashboards (docs/performance.md, "V8's heap ceiling").
  const V8_HIGH_GROWTH_FROM_MB = 2048;
  it('every way production starts the server, and the live bench, sets the same ceiling below 2 GiB', () => {
    const ceilingIn = (text: string): number[] =>
      [...text.matchAll(/NODE_OPTIONS[=:] ?'?--max-old-space-size=(\d+)/g)].map((m) => Number(m[1]));
    const service = directives(read('deploy/optionpilot.service'), 'Service');
    const runtimeStage =
      read('Dockerfile')
        .split(/^FROM /m)
        .at(-1) ?? '';
    const found = [
      ceilingIn((service.get('Environment') ?? []).join('\n')),
      ceilingIn(runtimeStage),
      ceilingIn(read('scripts/start.mjs')),
      ceilingIn(read('test/load/servers.ts')),
    ];
    for (const values of found) expect(values).toHaveLength(1);
    const values = new Set(found.flat());
    expect(values.size).toBe(1);
    const [mb] = [...values];
    expect(mb).toBeGreaterThanOrEqual(512);
    expect(mb).toBeLessThan(V8_HIGH_GROWTH_FROM_MB);
  });
});

describe('container files', () => {
  const dockerfile = read('Dockerfile');

  it('the Dockerfile installs every workspace, runs the bundle as a non-root user and checks /api/health', () => {
    for (const workspace of JSON.parse(read('package.json')).workspaces as string[]) {
      expect(dockerfile).toContain(`COPY ${workspace}/package.json ${workspace}/`);
    }
    expect(dockerfile.match(/^FROM node:20-bookworm-slim/gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^RUN npm ci\b/m);
    expect(dockerfile).toMatch(/^USER optionpilot$/m);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(dockerfile).toMatch(/DATA_DIR=\/data/);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/api\/health/m);
    expect(read('server/src/routes/health/router.ts')).toContain("router.get('/health'");
    expect(dockerfile).toMatch(/^CMD \["node", "--enable-source-maps", "server\/dist\/main\.js"\]$/m);
  });

  it('.dockerignore keeps dependencies, data and env files out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', 'data', '.env', 'optionpilot.env'])
      expect(ignored).toContain(entry);
  });

  it('compose.yaml runs the app on loopback with its data volume, and PostgreSQL only under a profile', () => {
    const compose = read('compose.yaml');
    expect(compose).toMatch(/- '127\.0\.0\.1:3000:3000'/);
    expect(compose).toMatch(/- optionpilot-data:\/data/);
    expect(compose).toMatch(/postgres:\n {4}profiles: \[postgres\]/);
  });

  it('compose.scale.yaml runs two engine-capable nodes on PostgreSQL and Redis behind Caddy with sticky sessions', () => {
    const compose = read('deploy/compose.scale.yaml');
    for (const service of ['node1', 'node2', 'postgres', 'redis', 'proxy'])
      expect(compose).toMatch(new RegExp(`^  ${service}:$`, 'm'));
    expect(compose).toMatch(/NODE_ROLE: engine/);
    expect(compose).toMatch(
      /DATABASE_URL: postgres:\/\/optionpilot:\$\{POSTGRES_PASSWORD[^}]*\}@postgres:5432\/optionpilot/,
    );
    expect(compose).toMatch(/REDIS_URL: redis:\/\/redis:6379/);
    expect(compose).toMatch(/- \.\/Caddyfile\.scale:\/etc\/caddy\/Caddyfile:ro/);
    const caddy = read('deploy/Caddyfile.scale');
    expect(caddy).toMatch(/reverse_proxy node1:3000 node2:3000 \{/);
    expect(caddy).toMatch(/lb_policy cookie/);
    expect(caddy).toMatch(/respond \/metrics 404/);
    // What the nodes get on top of env.example is a configuration the server accepts as a node of several.
    const key = Buffer.alloc(32, 1).toString('base64');
    const node = loadConfig({
      ...parseEnv(read('deploy/env.example')),
      NODE_ROLE: 'engine',
      DATABASE_URL: 'postgres://optionpilot:pw@postgres:5432/optionpilot',
      REDIS_URL: 'redis://redis:6379',
      JWT_SECRET: key,
      ENCRYPTION_KEY: key,
    });
    expect(node).toMatchObject({ nodeRole: 'engine', redisUrl: 'redis://redis:6379' });
  });
});
