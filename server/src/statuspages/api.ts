// Status page endpoints. /api/status-page: apply StatusPage resources (admin, editor: canaries
// write), list, read one (by id or slug, as YAML at /:id/spec), delete. Public reads, no sign-in
// unless the page is private: GET /status/{slug} (HTML), GET /api/status/{slug} (JSON) and
// GET /api/badge/{check|component}/{id}/{status|uptime|latency} (SVG, only for entries on a public
// page; a signed-in reader may fetch any). The same page asked for by many readers at once is
// computed once (requests in flight share it) and served for STATUS_PAGE_CACHE_MS (default 5 s).
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { stringify } from 'yaml';
import type { Identity, Principal } from '../auth/identity.js';
import { errorBody, HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import { acceptsGzip } from '../http/encoding.js';
import { addResourceRoutes, UUID } from '../resources/routes.js';
import { badgeSvg, formatLatency, formatUptime, latencyColor, STATE_BADGE, uptimeColor } from './badge.js';
import { onPublicPage, type EntryKind, type EntryRow } from './entries.js';
import { componentChecks, rangeFigures, RANGES, type BadgeRange } from './figures.js';
import { buildPublicPage, type MaintenanceSource, type PublicPage } from './page.js';
import { dataVersion, renderMessage, renderStatusPage } from './render.js';
import {
  applyStatusPage,
  deleteStatusPage,
  parseStatusPage,
  SLUG,
  statusPageResource,
  type StatusPageSpec,
} from './resource.js';

interface Deps {
  db: Database;
  identity: Identity;
  /** Announced maintenance (the maintenance module's occurrences); none when absent. */
  maintenance?: MaintenanceSource;
  /** How long a computed page is served to other readers (STATUS_PAGE_CACHE_MS); 0: per request. */
  cacheMs?: number;
}

const gzip = promisify(zlib.gzip);

interface PageRow {
  id: string;
  slug: string;
  spec: StatusPageSpec;
  private: boolean;
  source: string | null;
  created_at: string;
  updated_at: string;
}

const PAGE_COLUMNS = 'id::text, slug, spec, private, source, created_at, updated_at';

// ---------------------------------------------------------------------------------------------
// Management: /api/status-page

export function statusPageRoutes({ db, identity }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const notFound = () => new HttpError(404, 'NOT_FOUND', 'No such status page.');
  const find = async (key: string): Promise<PageRow> => {
    const by = UUID.test(key) ? 'id = $1::uuid' : SLUG.test(key) ? 'slug = $1' : undefined;
    if (!by) throw notFound();
    const { rows } = await db.query<PageRow>(
      `SELECT ${PAGE_COLUMNS} FROM status_pages WHERE ${by} AND deleted_at IS NULL`,
      [key],
    );
    if (!rows[0]) throw notFound();
    return rows[0];
  };

  app.get('/', async (c) => {
    await requirePermission(identity, c.get('principal'), 'canaries', 'read');
    const { rows } = await db.query<PageRow>(
      `SELECT ${PAGE_COLUMNS} FROM status_pages WHERE deleted_at IS NULL ORDER BY slug`,
    );
    return c.json(
      rows.map((r) => ({
        id: r.id,
        slug: r.slug,
        title: r.spec.title,
        private: r.private,
        source: r.source,
        sections: (r.spec.sections ?? []).length,
        url: `/status/${r.slug}`,
        created_at: r.created_at,
        updated_at: r.updated_at,
      })),
    );
  });

  // Before the generic routes: the resource is built from the slug and the spec.
  app.get('/:id/spec', async (c) => {
    await requirePermission(identity, c.get('principal'), 'canaries', 'read');
    const row = await find(c.req.param('id'));
    return c.body(stringify(statusPageResource(row)), 200, { 'content-type': 'application/yaml; charset=utf-8' });
  });

  app.get('/:id', async (c) => {
    await requirePermission(identity, c.get('principal'), 'canaries', 'read');
    const row = await find(c.req.param('id'));
    return c.json({ ...row, url: `/status/${row.slug}`, resource: statusPageResource(row) });
  });

  addResourceRoutes(app, {
    db,
    identity,
    table: 'status_pages',
    permission: 'canaries',
    kind: 'StatusPage',
    noun: 'status page',
    parse: (doc) => parseStatusPage(doc),
    apply: (def, opts) => applyStatusPage(db, def, opts),
    summary: (def) => ({ url: `/status/${def.name}` }),
    remove: (id) => deleteStatusPage(db, id),
    sourceHeader: true,
  });
  return app;
}

// ---------------------------------------------------------------------------------------------
// Public reads

interface Rendered {
  page: PublicPage;
  version: string;
  json?: Promise<{ plain: Buffer; gz: Buffer }>;
  html?: Promise<{ plain: Buffer; gz: Buffer }>;
}

async function encoded(text: string) {
  const plain = Buffer.from(text);
  return { plain, gz: await gzip(plain) };
}

/** The caller when signed in (a session cookie or a token), else null; never refuses. */
async function optionalPrincipal(identity: Identity, c: Context): Promise<Principal | null> {
  const h = c.req.raw.headers;
  if (!h.get('authorization') && !h.get('cookie')) return null;
  return identity.authenticate(h);
}

type Computed = (Rendered & { private: boolean }) | null;

/** Pages kept at most this many at once (a slug that does not exist is kept too, as null). */
const MAX_CACHED_PAGES = 1000;

class PublicPages {
  /** Per slug: the computation in flight or done, and when it started (0 while in flight). */
  private pages = new Map<string, { at: number; value: Promise<Computed> }>();

  constructor(
    private db: Database,
    private maintenance: MaintenanceSource | undefined,
    private cacheMs: number,
  ) {}

  /** The page's row (for its private flag) and its data: shared by the requests in flight, kept cacheMs. */
  get(slug: string): Promise<Computed> {
    const now = Date.now();
    const hit = this.pages.get(slug);
    if (hit && (hit.at === 0 || now - hit.at < this.cacheMs)) return hit.value;
    if (this.pages.size >= MAX_CACHED_PAGES) this.pages.clear();
    const entry = { at: 0, value: this.compute(slug) };
    this.pages.set(slug, entry);
    entry.value.then(
      () => {
        if (this.cacheMs > 0) entry.at = now;
        else if (this.pages.get(slug) === entry) this.pages.delete(slug);
      },
      () => {
        if (this.pages.get(slug) === entry) this.pages.delete(slug);
      },
    );
    return entry.value;
  }

  private async compute(slug: string) {
    const { rows } = await this.db.query<{ spec: StatusPageSpec; private: boolean }>(
      'SELECT spec, private FROM status_pages WHERE slug = $1 AND deleted_at IS NULL',
      [slug],
    );
    if (!rows[0]) return null;
    const page = await buildPublicPage(this.db, { slug, spec: rows[0].spec }, this.maintenance);
    return { page, version: dataVersion(page), private: rows[0].private };
  }
}

/** The answer, gzipped when the client takes it, with the time the server spent (Server-Timing: app). */
function send(c: Context, body: { plain: Buffer; gz: Buffer }, headers: Record<string, string>, t0: number) {
  const gz = acceptsGzip(c.req.header('accept-encoding'));
  const data = gz ? body.gz : body.plain;
  return c.body(new Uint8Array(data), 200, {
    ...headers,
    'server-timing': `app;dur=${(performance.now() - t0).toFixed(1)}`,
    vary: 'Accept-Encoding, Cookie, Authorization',
    'x-content-type-options': 'nosniff',
    ...(gz ? { 'content-encoding': 'gzip' } : {}),
  });
}

const STATUS_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src * data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *";

export function publicStatusRoutes({ db, identity, maintenance, cacheMs = 0 }: Deps) {
  const pages = new PublicPages(db, maintenance, cacheMs);

  /** The page for this caller: null when there is none; 'sign-in' when it is private and they are not. */
  const readable = async (c: Context, slug: string) => {
    if (!SLUG.test(slug)) return null;
    const found = await pages.get(slug);
    if (!found) return null;
    if (!found.private) return found;
    const principal = await optionalPrincipal(identity, c);
    if (!principal) return 'sign-in' as const;
    await requirePermission(identity, principal, 'canaries', 'read');
    return found;
  };

  const cacheHeaders = (r: Rendered & { private: boolean }, type: string) => ({
    'content-type': type,
    'cache-control': r.private ? 'private, no-cache' : 'public, no-cache',
    etag: `"${r.version}"`,
  });

  /** GET /status/{slug}: the page as HTML. */
  const html = new Hono();
  html.get('/:slug', async (c) => {
    const t0 = performance.now();
    const slug = c.req.param('slug');
    const page = (s: number, title: string, text: string) =>
      c.html(renderMessage(title, text, s), s as 404, { 'cache-control': 'no-store' });
    let r;
    try {
      r = await readable(c, slug);
    } catch (e) {
      if (e instanceof HttpError) return page(e.status === 403 ? 403 : 404, 'Not available', e.message);
      throw e;
    }
    if (!r) return page(404, 'No such status page', `There is no status page at /status/${slug}.`);
    if (r === 'sign-in') return c.redirect(`/login?return_to=${encodeURIComponent(`/status/${slug}`)}`, 302);
    const headers = { ...cacheHeaders(r, 'text/html; charset=utf-8'), 'content-security-policy': STATUS_CSP };
    if (c.req.header('if-none-match') === headers.etag) return c.body(null, 304, headers);
    r.html ??= encoded(renderStatusPage(r.page));
    return send(c, await r.html, headers, t0);
  });

  /** /api/status/{slug} and /api/badge/…, mounted under /api (public: the middleware lets them through). */
  const api = new Hono();
  api.get('/status/:slug', async (c) => {
    const t0 = performance.now();
    const r = await readable(c, c.req.param('slug'));
    if (!r) throw new HttpError(404, 'NOT_FOUND', `No status page named "${c.req.param('slug')}".`);
    if (r === 'sign-in')
      throw new HttpError(401, 'UNAUTHENTICATED', 'This status page is private: sign in to read it.');
    const headers = cacheHeaders(r, 'application/json; charset=utf-8');
    if (c.req.header('if-none-match') === headers.etag) return c.body(null, 304, headers);
    r.json ??= encoded(JSON.stringify(r.page));
    return send(c, await r.json, headers, t0);
  });

  api.get('/badge/:kind/:id/:metric', async (c) => {
    const { kind, id, metric } = c.req.param();
    if (kind !== 'check' && kind !== 'component')
      throw new HttpError(
        400,
        'INVALID_REQUEST',
        `"${kind}" has no badges: use /api/badge/check/… or /api/badge/component/…`,
      );
    if (metric !== 'status' && metric !== 'uptime' && metric !== 'latency')
      throw new HttpError(400, 'INVALID_REQUEST', `"${metric}" is not a badge: use status, uptime or latency`);
    const range = c.req.query('range') ?? '24h';
    if (!Object.hasOwn(RANGES, range))
      throw new HttpError(400, 'INVALID_REQUEST', `range "${range}" is not one of ${Object.keys(RANGES).join(', ')}`);
    const notFound = new HttpError(404, 'NOT_FOUND', `No ${kind} ${id} on a public status page.`);
    if (!UUID.test(id)) throw notFound;
    const { rows } = await db.query<EntryRow>(
      kind === 'check'
        ? 'SELECT id::text, name, labels, status AS health FROM checks WHERE id = $1 AND deleted_at IS NULL'
        : 'SELECT id::text, name, labels, health FROM components WHERE id = $1 AND deleted_at IS NULL',
      [id],
    );
    const row = rows[0];
    const principal = await optionalPrincipal(identity, c);
    if (principal) await requirePermission(identity, principal, kind === 'check' ? 'canaries' : 'topologies', 'read');
    if (!row || (!principal && !(await onPublicPage(db, kind as EntryKind, row)))) throw notFound;

    let label: string;
    let value: string;
    let color;
    if (metric === 'status') {
      const state =
        kind === 'check'
          ? ({ healthy: 'operational', unhealthy: 'down' } as Record<string, string>)[row.health ?? '']
          : ({ healthy: 'operational', warning: 'degraded', unhealthy: 'down' } as Record<string, string>)[
              row.health ?? ''
            ];
      ({ text: value, color } = STATE_BADGE[state ?? 'unknown']!);
      label = row.name;
    } else {
      const checks = kind === 'check' ? [row.id] : ((await componentChecks(db, [row.id])).get(row.id) ?? []);
      const figures = await rangeFigures(db, checks, range as BadgeRange);
      label = `${metric} ${range}`;
      value = metric === 'uptime' ? formatUptime(figures.uptime) : formatLatency(figures.latency);
      color = metric === 'uptime' ? uptimeColor(figures.uptime) : latencyColor(figures.latency);
    }
    const svg = badgeSvg(label, value, color);
    const etag = `"${createHash('sha1').update(svg).digest('base64url').slice(0, 20)}"`;
    const headers = {
      'content-type': 'image/svg+xml; charset=utf-8',
      'cache-control': principal ? 'private, max-age=60' : 'public, max-age=60',
      etag,
      vary: 'Cookie, Authorization',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    return c.body(svg, 200, headers);
  });
  api.onError((err, c) => {
    if (err instanceof HttpError) return c.json(errorBody(err), err.status);
    throw err;
  });
  return { html, api };
}
