// /api/notification: apply Notification resources (YAML or JSON, one or many documents), read one
// back as YAML, delete one; the same for NotificationSilence under /api/notification/silence
// (docs/api.md, "Notifications"). Reads need read on notifications, the rest write.
import { Hono } from 'hono';
import type { Identity } from '../auth/identity.js';
import type { AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import { addResourceRoutes, inResourceOrder } from '../resources/routes.js';
import { applyNotification, deleteNotification, parseNotification } from './resource.js';
import { applySilence, deleteSilence, parseSilence } from './silenceResource.js';

interface Deps {
  db: Database;
  identity: Identity;
}

export function notificationRoutes({ db, identity }: Deps): Hono<AuthEnv> {
  const silences = new Hono<AuthEnv>();
  addResourceRoutes(silences, {
    db,
    identity,
    table: 'notification_silences',
    permission: 'notifications',
    kind: 'NotificationSilence',
    noun: 'notification silence',
    parse: (doc) => parseSilence(db, doc),
    apply: (def, opts) => applySilence(db, def, opts),
    readBack: inResourceOrder,
    remove: (id) => deleteSilence(db, id),
    sourceHeader: true,
  });

  const app = new Hono<AuthEnv>();
  // Mounted first: /silence/... is never read as a rule id.
  app.route('/silence', silences);
  addResourceRoutes(app, {
    db,
    identity,
    table: 'notifications',
    permission: 'notifications',
    kind: 'Notification',
    noun: 'notification',
    parse: (doc) => parseNotification(db, doc),
    apply: (def, opts) => applyNotification(db, def, opts),
    readBack: inResourceOrder,
    remove: (id) => deleteNotification(db, id),
    sourceHeader: true,
  });
  return app;
}
