// Serves the built web app (web/dist): hashed files under /assets are cached for a year, everything else must be
// revalidated; any other GET outside /api and /socket.io that is not a file gets index.html (the SPA routes it).
// Without a build, a small page says how to make one: the API keeps working either way.
import { createReadStream, existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Middleware } from 'koa';
import koaStatic from 'koa-static';
import type { AppState } from './middleware/context';

const ONE_YEAR_SECONDS = 31_536_000;

export const BUILD_MISSING_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OptionPilot</title></head>
<body><h1>OptionPilot</h1><p>The web app has not been built yet. Run <code>npm run build</code> (or
<code>npm start</code>, which builds what is missing) and reload this page. The API is available under <code>/api</code>.</p></body></html>`;

const isServerPath = (path: string) =>
  path === '/api' || path.startsWith('/api/') || path === '/socket.io' || path.startsWith('/socket.io/');

/** Static files + SPA fallback for `distDir`. */
export function webApp(distDir: string): Middleware<AppState> {
  const serve = koaStatic(distDir, {
    index: false,
    gzip: true,
    brotli: true,
    setHeaders(res, path) {
      const hashed = path.startsWith(join(distDir, 'assets'));
      res.setHeader('Cache-Control', hashed ? `public, max-age=${ONE_YEAR_SECONDS}, immutable` : 'no-cache');
    },
  });
  const indexFile = join(distDir, 'index.html');

  return async (ctx, next) => {
    if (isServerPath(ctx.path) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    let handled = true;
    await serve(ctx, async () => {
      handled = false;
    });
    // A missing file (a stale hashed asset, a typo'd image) is a plain 404, not the app's HTML.
    if (handled || (extname(ctx.path) !== '' && extname(ctx.path) !== '.html')) return;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    // Checked per request so a build made while the server runs is picked up without a restart.
    ctx.body = existsSync(indexFile) ? createReadStream(indexFile) : BUILD_MISSING_HTML;
  };
}
