// HTTP wiring: API routes under /api, the web console for everything else.
import { Hono } from 'hono';
import type { AppContext } from '../app.js';
import { restRoutes } from '../rest/handler.js';
import { serveWeb } from './static.js';

export function createHttpApp(ctx: AppContext): Hono {
  const app = new Hono();

  app.get('/api/about', (c) => c.json({ version: ctx.version, database: ctx.db.kind }));

  app.get('/api/properties', async (c) => {
    const { rows } = await ctx.db.query(
      'SELECT name, value, created_by, created_at, updated_at FROM properties ORDER BY name',
    );
    return c.json(rows);
  });

  app.route('/api/db', restRoutes(ctx));

  app.all('/api/*', (c) => c.json({ error: `No API endpoint at ${c.req.method} ${c.req.path}` }, 404));

  app.onError((err, c) => {
    console.error(`${c.req.method} ${c.req.path} failed:`, err);
    return c.json({ error: 'Internal server error', message: err.message }, 500);
  });

  serveWeb(app, ctx.config.webDir);
  return app;
}
