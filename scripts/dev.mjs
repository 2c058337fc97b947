#!/usr/bin/env node
// `npm run dev`: the server with tsx watch (restarts on change) and the Vite dev server (hot reload, proxies
// /api and /socket.io to the server). Open the URL Vite prints. Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(ROOT, 'node_modules/.bin', process.platform === 'win32' ? `${name}.cmd` : name);

const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/src/main.ts'], { cwd: ROOT, stdio: 'inherit' }),
  spawn(bin('vite'), ['--config', 'web/vite.config.ts'], { cwd: join(ROOT, 'web'), stdio: 'inherit' }),
];

let stopping = false;
const stop = (code) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
};
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
