// Serves the built web console (web/dist): static files, long-lived caching for hashed assets,
// and index.html for every other non-API GET so client-side routes survive a reload.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Env, Hono } from 'hono';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Vite puts content-hashed files under /assets/: their URL changes whenever their bytes do. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html above all) must be revalidated so a deploy is picked up at once. */
const REVALIDATE = 'no-cache';

const NOT_BUILT =
  'The Opsdeck web console is not built.\n\nRun `npm run build` (or `npm start`, which builds what is missing) and reload this page.\n';

export function serveWeb<E extends Env>(app: Hono<E>, webDir: string): void {
  const root = path.resolve(webDir);
  const indexFile = path.join(root, 'index.html');

  app.get('*', async (c, next) => {
    const urlPath = c.req.path;
    if (urlPath === '/api' || urlPath.startsWith('/api/')) return next();

    // Checked per request so a console built while the server runs is served without a restart.
    const index = statFile(indexFile);
    if (!index) {
      return c.text(NOT_BUILT, 503, { 'Cache-Control': REVALIDATE });
    }

    const file = resolveInside(root, urlPath);
    if (file === null) return c.text('Bad request path\n', 400);
    const stat = file === root ? undefined : statFile(file);
    if (stat) {
      const immutable = urlPath.startsWith('/assets/');
      return sendFile(c.req.raw, file, stat, immutable ? IMMUTABLE : REVALIDATE);
    }
    // A missing hashed asset is a stale page asking for an old build: answering with HTML would
    // only produce a confusing script error in the browser.
    if (urlPath.startsWith('/assets/')) return c.text('Not found\n', 404, { 'Cache-Control': REVALIDATE });
    return sendFile(c.req.raw, indexFile, index, REVALIDATE);
  });
}

/** Maps a URL path to a file under root, or null when it is malformed or would escape root. */
function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const resolved = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (resolved !== root && !resolved.startsWith(root + path.sep)) return null;
  return resolved;
}

function statFile(file: string): fs.Stats | undefined {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() ? stat : undefined;
  } catch {
    return undefined;
  }
}

function sendFile(request: Request, file: string, stat: fs.Stats, cacheControl: string): Response {
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Cache-Control': cacheControl,
    ETag: etag,
    'Last-Modified': stat.mtime.toUTCString(),
    'X-Content-Type-Options': 'nosniff',
  };
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers['Content-Length'] = String(stat.size);
  // Hono answers HEAD through the GET route; don't open a file nobody will read.
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers });
}
