// /api/agent (register, rotate, delete; write on agents) and /api/upstream (what an agent calls with
// its token: ping, push, the playbook runs assigned to it and Run Now requests for its checks). Contract: docs/api.md "Agents".
import { Hono, type Context } from 'hono';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Identity } from '../auth/identity.js';
import { errorBody, HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import { agentOfPerson, deleteAgent, generateAgent, generateRequestSchema, rotateAgentToken } from './generate.js';
import { addCheckRunRelayRoutes } from './checkRunRelay.js';
import { addPlaybookRelayRoutes } from './playbookRelay.js';
import { parsePushBody, PushError, receivePush } from './push.js';
import { DEFAULT_PUSH_RATE, TokenBuckets, type RateLimitOptions } from './rateLimit.js';

const gunzipAsync = promisify(gunzip);

/** A push as sent (gzip or not) and once decompressed. */
export const PUSH_LIMITS = { sentBytes: 8 * 1024 * 1024, jsonBytes: 64 * 1024 * 1024 };

interface Deps {
  db: Database;
  identity: Identity;
  rate?: RateLimitOptions;
  limits?: typeof PUSH_LIMITS;
}

export function agentRoutes({ db, identity }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const mayWrite = (c: Context<AuthEnv>) => requirePermission(identity, c.get('principal'), 'agents', 'write');

  app.post('/generate', async (c) => {
    await mayWrite(c);
    const parsed = generateRequestSchema.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'name';
      throw new HttpError(400, 'INVALID_REQUEST', `${field}: ${issue?.message ?? 'invalid request'}`, field);
    }
    return c.json(await generateAgent(db, parsed.data, c.get('principal').id), 201);
  });

  app.post('/:id/token', async (c) => {
    await mayWrite(c);
    return c.json(await rotateAgentToken(db, c.req.param('id'), c.get('principal').id));
  });

  app.delete('/:id', async (c) => {
    await mayWrite(c);
    const cleanup = c.req.query('cleanup');
    if (cleanup !== undefined && cleanup !== 'true' && cleanup !== 'false') {
      throw new HttpError(400, 'INVALID_REQUEST', 'cleanup must be true or false', 'cleanup');
    }
    return c.json(await deleteAgent(db, c.req.param('id'), cleanup === 'true'));
  });

  return app;
}

class TooLarge extends Error {}

/** The request body, refused (413) beyond the limits, gunzipped when sent with Content-Encoding: gzip. */
async function readBody(c: Context<AuthEnv>, limits: typeof PUSH_LIMITS): Promise<Buffer> {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > limits.sentBytes) throw new TooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  const body = c.req.raw.body;
  if (body) {
    // A reader loop rather than for-await: the DOM typings (web/e2e type-checks this file) have no
    // async iterator on ReadableStream.
    const reader = body.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      size += r.value.byteLength;
      if (size > limits.sentBytes) {
        await reader.cancel();
        throw new TooLarge();
      }
      chunks.push(Buffer.from(r.value));
    }
  }
  const raw = Buffer.concat(chunks);
  const encoding = (c.req.header('content-encoding') ?? 'identity').toLowerCase();
  if (encoding === 'identity') {
    if (raw.length > limits.jsonBytes) throw new TooLarge();
    return raw;
  }
  if (encoding !== 'gzip')
    throw new PushError(400, 'INVALID_PUSH', `Content-Encoding ${encoding} is not accepted (gzip or none).`);
  try {
    return await gunzipAsync(raw, { maxOutputLength: limits.jsonBytes });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) throw new TooLarge();
    throw new PushError(400, 'INVALID_PUSH', 'The body is not valid gzip.');
  }
}

export function upstreamRoutes({ db, rate = DEFAULT_PUSH_RATE, limits = PUSH_LIMITS }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const buckets = new TokenBuckets(rate);

  /** The agent behind the token; a person's own token is not an agent's. */
  async function callingAgent(c: Context<AuthEnv>) {
    const principal = c.get('principal');
    const agent = principal.via === 'token' ? await agentOfPerson(db, principal.id) : null;
    if (!agent) throw new HttpError(403, 'NOT_AN_AGENT', 'This endpoint takes an agent access token.');
    return agent;
  }

  app.get('/ping', async (c) => {
    const agent = await callingAgent(c);
    const { rows } = await db.query<{ last_seen: string }>(
      `UPDATE agents SET last_seen = now(), hostname = coalesce($2, hostname), version = coalesce($3, version)
       WHERE id = $1 RETURNING last_seen`,
      [agent.id, c.req.header('x-opsdeck-hostname') ?? null, c.req.header('x-opsdeck-version') ?? null],
    );
    return c.json({ id: agent.id, name: agent.name, last_seen: rows[0]?.last_seen ?? null });
  });

  // Playbook runs assigned to the agent (runsOn): claim and report (playbookRelay.ts).
  addPlaybookRelayRoutes(app, db, callingAgent);
  // Run Now on the agent's checks, pressed upstream: claim and report (checkRunRelay.ts).
  addCheckRunRelayRoutes(app, db, callingAgent);

  app.post('/push', async (c) => {
    const agent = await callingAgent(c);
    const wait = buckets.take(agent.id);
    if (wait > 0) {
      c.header('Retry-After', String(wait));
      return c.json(
        errorBody(new HttpError(429, 'RATE_LIMITED', `Too many pushes from agent ${agent.name}: retry in ${wait} s.`)),
        429,
      );
    }
    try {
      const raw = await readBody(c, limits);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new PushError(400, 'INVALID_PUSH', 'The body is not valid JSON.');
      }
      return c.json(await receivePush(db, agent.id, parsePushBody(json)));
    } catch (e) {
      if (e instanceof TooLarge) {
        const message = `The push is larger than ${limits.sentBytes} bytes as sent or ${limits.jsonBytes} bytes of JSON: send smaller batches.`;
        return c.json({ error: message, message, code: 'TOO_LARGE' }, 413);
      }
      if (e instanceof PushError) return c.json({ error: e.message, message: e.message, code: e.code }, e.status);
      throw e;
    }
  });

  return app;
}
