#!/usr/bin/env node
// Builds what is missing or stale: the web app (Vite → web/dist) and the server (esbuild bundle of
// server/src/main.ts with the engine and migrations → server/dist/main.js). `--force` rebuilds both;
// `--server-only` / `--web-only` limit the work. Also importable: `buildAll(options)` (used by start.mjs).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_OUT = join(ROOT, 'server/dist/main.js');
const WEB_OUT = join(ROOT, 'web/dist/index.html');

const SERVER_INPUTS = [
  'server/src',
  'engine/src',
  'migrations',
  'package.json',
  'server/package.json',
  'engine/package.json',
];
const WEB_INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'server/src/contract',
  // the one engine module the web app imports (@optionpilot/engine/money)
  'engine/src/money',
  'engine/package.json',
  'package.json',
];

/** Newest modification time (ms) under the given paths, skipping tests and build output. */
function newestMtime(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry === 'node_modules' || entry === 'dist') continue;
        visit(join(path, entry));
      }
    } else if (!/\.test\.tsx?$/.test(path)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const p of paths) visit(join(ROOT, p));
  return newest;
}

/** true when `output` is missing or older than any input. */
function isStale(output, inputs) {
  return !existsSync(output) || statSync(output).mtimeMs < newestMtime(inputs);
}

// Packages from node_modules stay external (resolved at run time next to the repository); our workspaces
// (`@optionpilot/*`) are TypeScript sources and must be bundled.
const externalNodeModules = {
  name: 'external-node-modules',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@optionpilot/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

// Some CommonJS-era dependencies reach for `require`, `__filename` or `__dirname`, which do not exist in ESM.
const NODE_GLOBALS_BANNER = [
  "import { createRequire as __opCreateRequire } from 'node:module';",
  "import { fileURLToPath as __opFileURLToPath } from 'node:url';",
  "import { dirname as __opDirname } from 'node:path';",
  'const require = __opCreateRequire(import.meta.url);',
  'const __filename = __opFileURLToPath(import.meta.url);',
  'const __dirname = __opDirname(__filename);',
].join('\n');

async function buildServer(log) {
  const { build } = await import('esbuild');
  const started = Date.now();
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['server/src/main.ts'],
    outfile: SERVER_OUT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalNodeModules],
    banner: { js: NODE_GLOBALS_BANNER },
  });
  log(`build: server → ${relative(ROOT, SERVER_OUT)} (${Date.now() - started} ms)`);
}

async function buildWeb(log) {
  if (!existsSync(join(ROOT, 'web/index.html'))) {
    log('build: web/index.html does not exist yet, skipping the web app');
    return;
  }
  const { build } = await import('vite');
  const started = Date.now();
  await build({ root: join(ROOT, 'web'), configFile: join(ROOT, 'web/vite.config.ts'), logLevel: 'warn' });
  log(`build: web → web/dist (${Date.now() - started} ms)`);
}

/**
 * Builds the server and/or web app when missing or stale (or always with `force`). A failed web build is
 * reported and, with `webOptional`, does not stop the server build (start.mjs: the API runs without the app).
 */
export async function buildAll({
  force = false,
  server = true,
  web = true,
  webOptional = false,
  log = console.log,
} = {}) {
  if (web) {
    if (force || isStale(WEB_OUT, WEB_INPUTS)) {
      try {
        await buildWeb(log);
      } catch (err) {
        if (!webOptional) throw err;
        log(
          `build: the web app failed to build, continuing without it: ${err instanceof Error ? err.message : err}`,
        );
      }
    } else log('build: web is up to date');
  }
  if (server) {
    if (force || isStale(SERVER_OUT, SERVER_INPUTS)) await buildServer(log);
    else log('build: server is up to date');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = new Set(process.argv.slice(2));
  buildAll({
    force: args.has('--force'),
    server: !args.has('--web-only'),
    web: !args.has('--server-only'),
  }).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
