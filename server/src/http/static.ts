// Serves the built web console (web/dist): static files, long-lived caching for hashed assets,
// and index.html for every other non-API GET so client-side routes survive a reload.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Env, Hono } from 'hono';
import { acceptsGzip } from './encoding.js';

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

/** Text worth compressing for browsers that accept gzip (images and fonts are compressed already). */
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.webmanifest',
  '.txt',
  '.svg',
  '.wasm',
]);
const MIN_COMPRESSED_SIZE = 1024;
const gzip = promisify(zlib.gzip);
/** The gzip of each file served, made once per version of the file (the build is a few MB). */
const compressed = new Map<string, { etag: string; data: Promise<Buffer> }>();
/**
 * Files up to this size are kept in memory as sent (per version), like the gzipped ones: a page asks
 * for tens of small chunks at once, and each opened, read and closed through a stream cost the
 * server ~1 ms of its event loop while the page waited.
 */
const SMALL_FILE_BYTES = 64 * 1024;
const small = new Map<string, { etag: string; data: Promise<Buffer> }>();

/** The bytes `load` makes of `file`, made once per version (`etag`) and kept in `cache`. */
function cachedBytes(
  cache: Map<string, { etag: string; data: Promise<Buffer> }>,
  file: string,
  etag: string,
  load: () => Promise<Buffer>,
): Promise<Buffer> {
  let entry = cache.get(file);
  if (!entry || entry.etag !== etag) {
    const data = load();
    const made = { etag, data };
    entry = made;
    cache.set(file, made);
    data.catch(() => cache.get(file) === made && cache.delete(file));
  }
  return entry.data;
}

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

async function sendFile(request: Request, file: string, stat: fs.Stats, cacheControl: string): Promise<Response> {
  const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const ext = path.extname(file).toLowerCase();
  const compressible = COMPRESSIBLE.has(ext) && stat.size >= MIN_COMPRESSED_SIZE;
  const gzipped = compressible && acceptsGzip(request.headers.get('accept-encoding'));
  // The compressed variant is another representation: its own validator.
  const tag = gzipped ? etag.replace(/"$/, '-gz"') : etag;
  const headers: Record<string, string> = {
    'Content-Type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
    'Cache-Control': cacheControl,
    ETag: tag,
    'Last-Modified': stat.mtime.toUTCString(),
    'X-Content-Type-Options': 'nosniff',
  };
  if (compressible) headers.Vary = 'Accept-Encoding';
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === tag)) {
    return new Response(null, { status: 304, headers });
  }
  if (gzipped) {
    const data = await cachedBytes(compressed, file, etag, () =>
      fs.promises.readFile(file).then((bytes) => gzip(bytes, { level: 9 })),
    );
    headers['Content-Encoding'] = 'gzip';
    headers['Content-Length'] = String(data.length);
    if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
    return new Response(new Uint8Array(data), { status: 200, headers });
  }
  headers['Content-Length'] = String(stat.size);
  // Hono answers HEAD through the GET route; don't open a file nobody will read.
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  if (stat.size <= SMALL_FILE_BYTES) {
    const data = await cachedBytes(small, file, etag, () => fs.promises.readFile(file));
    return new Response(new Uint8Array(data), { status: 200, headers });
  }
  const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers });
}
