// /api/event-queue (docs/api.md, "Event queue"): an admin puts the failed events of one name back in
// the queue (Retry) or deletes them (Discard); each action is recorded in job history as 'Event Queue'.
import os from 'node:os';
import { canManageEventQueue } from '@opsdeck/common';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { HttpError, type AuthEnv } from '../auth/middleware.js';
import type { Database, Queryable } from '../db/database.js';
import { discardFailedEvents, retryFailedEvents } from './eventQueue.js';
import { recordJob } from './history.js';

interface Deps {
  db: Database;
}

export type EventQueueAction = 'retry' | 'discard';

const ACTIONS: Record<EventQueueAction, (db: Queryable, name: string) => Promise<number>> = {
  retry: retryFailedEvents,
  discard: discardFailedEvents,
};

const bodySchema = z.object({
  name: z.string({ error: 'name (the event name) is required' }).trim().min(1, 'name (the event name) is required'),
});

async function eventName(c: Context<AuthEnv>): Promise<string> {
  let body: unknown;
  try {
    const text = await c.req.text();
    body = text.trim() ? JSON.parse(text) : {};
  } catch {
    throw new HttpError(400, 'INVALID_REQUEST', 'The request body must be JSON: {"name": "<event name>"}.');
  }
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, 'INVALID_REQUEST', parsed.error.issues[0]!.message, 'name');
  return parsed.data.name;
}

export function eventQueueRoutes({ db }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  for (const action of Object.keys(ACTIONS) as EventQueueAction[]) {
    app.post(`/${action}`, async (c) => {
      if (!canManageEventQueue(c.get('principal').roles))
        throw new HttpError(403, 'FORBIDDEN', 'Only an administrator can retry or discard events.');
      const name = await eventName(c);
      const startedAt = new Date();
      // The action and its job history row commit together.
      const count = await db.transaction(async (tx) => {
        const n = await ACTIONS[action](tx, name);
        await recordJob(
          tx,
          {
            name: 'Event Queue',
            resourceType: 'event_queue',
            resourceId: name,
            successCount: n,
            details: { action, name, count: n, by: c.get('principal').id },
          },
          { startedAt, finishedAt: new Date(), failed: false, errors: [] },
          os.hostname(),
        );
        return n;
      });
      return c.json({ name, count });
    });
  }
  return app;
}
