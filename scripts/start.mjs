#!/usr/bin/env node
// `npm start`: builds what is missing or stale, then runs the bundled server (node server/dist/main.js), which
// validates the configuration, migrates the database and listens on HOST:PORT. Signals are passed on so the
// server shuts down gracefully; its exit code becomes ours (1 for an invalid configuration).
// `--skip-web-build` starts without (re)building the web app (the server then serves whatever web/dist holds).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from './build.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));

try {
  await buildAll({ web: !args.has('--skip-web-build'), webOptional: true, log: (m) => console.error(m) });
} catch (err) {
  console.error(`start: the server failed to build: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}

// One malloc arena and a 1 GiB V8 old generation (unless the operator chose otherwise): see deploy/optionpilot.service.
const child = spawn(process.execPath, ['--enable-source-maps', join(ROOT, 'server/dist/main.js')], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { MALLOC_ARENA_MAX: '1', NODE_OPTIONS: '--max-old-space-size=1024', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
});
