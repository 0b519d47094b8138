// Verifying a webhook request against its playbook's `on.webhook.authentication` (mission-control's
// PlaybookEventWebhookAuth): basic (username/password), github (X-Hub-Signature-256, HMAC-SHA256 of the
// body with the token), svix (svix-id/svix-timestamp/svix-signature, HMAC-SHA256 with the whsec_ secret,
// timestamp within verifyTimestamp, default 5m) and jwt (a bearer token signed by a key of the JWKS at
// jwksUri: RS256/384/512, PS256/384/512, ES256/384/512; exp and nbf checked). Answers null when the
// request is accepted, else why not (the route answers 401 without saying which part failed).
import crypto from 'node:crypto';
import { resolveEnvValue } from '../connections/envValue.js';
import { parseDuration } from '../connections/duration.js';
import type { WebhookAuth } from './triggerSpec.js';

export interface WebhookRequest {
  headers: Headers;
  /** The body exactly as received (signatures are over these bytes). */
  body: Buffer;
}

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

const hmac = (key: crypto.BinaryLike, data: crypto.BinaryLike) => crypto.createHmac('sha256', key).update(data);

export async function verifyWebhook(
  auth: WebhookAuth | undefined,
  req: WebhookRequest,
  fetchJwks: (uri: string) => Promise<JsonWebKeySet> = cachedJwks,
): Promise<string | null> {
  if (!auth) return null;
  if (auth.basic) {
    const header = req.headers.get('authorization') ?? '';
    const m = /^Basic\s+(\S+)$/i.exec(header);
    if (!m) return 'basic credentials are missing';
    const [user, ...rest] = Buffer.from(m[1]!, 'base64').toString('utf8').split(':');
    const username = (await resolveEnvValue(auth.basic.username)) ?? '';
    const password = (await resolveEnvValue(auth.basic.password)) ?? '';
    return sameText(user ?? '', username) && sameText(rest.join(':'), password) ? null : 'wrong credentials';
  }
  if (auth.github) {
    const given = req.headers.get('x-hub-signature-256') ?? '';
    const token = (await resolveEnvValue(auth.github.token)) ?? '';
    const expected = `sha256=${hmac(token, req.body).digest('hex')}`;
    return given && sameText(given, expected) ? null : 'wrong or missing X-Hub-Signature-256';
  }
  if (auth.svix) return verifySvix(auth.svix, req);
  if (auth.jwt) return verifyJwt(auth.jwt.jwksUri, req, fetchJwks);
  return null;
}

async function verifySvix(svix: NonNullable<WebhookAuth['svix']>, req: WebhookRequest): Promise<string | null> {
  const id = req.headers.get('svix-id') ?? req.headers.get('webhook-id');
  const timestamp = req.headers.get('svix-timestamp') ?? req.headers.get('webhook-timestamp');
  const signatures = req.headers.get('svix-signature') ?? req.headers.get('webhook-signature');
  if (!id || !timestamp || !signatures) return 'svix headers are missing';
  const seconds = Number(timestamp);
  const tolerance = parseDuration(svix.verifyTimestamp ?? '5m');
  if (!Number.isFinite(seconds) || Math.abs(Date.now() - seconds * 1000) > tolerance) return 'timestamp out of range';
  const secret = (await resolveEnvValue(svix.secret)) ?? '';
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const expected = hmac(key, `${id}.${timestamp}.${req.body.toString('utf8')}`).digest('base64');
  const ok = signatures
    .split(' ')
    .map((s) => s.split(','))
    .some(([version, sig]) => version === 'v1' && !!sig && sameText(sig, expected));
  return ok ? null : 'wrong svix signature';
}

export interface JsonWebKeySet {
  keys: (crypto.JsonWebKey & { kid?: string; alg?: string; use?: string })[];
}

const JWKS_TTL_MS = 5 * 60_000;
const jwksCache = new Map<string, { at: number; jwks: JsonWebKeySet }>();

async function cachedJwks(uri: string): Promise<JsonWebKeySet> {
  const hit = jwksCache.get(uri);
  if (hit && Date.now() - hit.at < JWKS_TTL_MS) return hit.jwks;
  const res = await fetch(uri, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`the JWKS at ${uri} answered ${res.status}`);
  const jwks = (await res.json()) as JsonWebKeySet;
  if (!Array.isArray(jwks?.keys)) throw new Error(`the JWKS at ${uri} has no keys`);
  jwksCache.set(uri, { at: Date.now(), jwks });
  return jwks;
}

const ALGORITHMS: Record<string, { hash: string; pss?: boolean; ec?: boolean }> = {
  RS256: { hash: 'sha256' },
  RS384: { hash: 'sha384' },
  RS512: { hash: 'sha512' },
  PS256: { hash: 'sha256', pss: true },
  PS384: { hash: 'sha384', pss: true },
  PS512: { hash: 'sha512', pss: true },
  ES256: { hash: 'sha256', ec: true },
  ES384: { hash: 'sha384', ec: true },
  ES512: { hash: 'sha512', ec: true },
};

const decodePart = (part: string): Record<string, unknown> => {
  const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  if (!value || typeof value !== 'object') throw new Error('not an object');
  return value as Record<string, unknown>;
};

async function verifyJwt(
  jwksUri: string,
  req: WebhookRequest,
  fetchJwks: (uri: string) => Promise<JsonWebKeySet>,
): Promise<string | null> {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '');
  const parts = m?.[1]!.split('.');
  if (!parts || parts.length !== 3) return 'a bearer token is missing';
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = decodePart(parts[0]!);
    claims = decodePart(parts[1]!);
  } catch {
    return 'the token is not a JWT';
  }
  const alg = ALGORITHMS[String(header.alg)];
  if (!alg) return `algorithm ${String(header.alg)} is not accepted`;
  const jwks = await fetchJwks(jwksUri);
  const candidates = jwks.keys.filter((k) => (header.kid === undefined || k.kid === header.kid) && k.use !== 'enc');
  const data = Buffer.from(`${parts[0]}.${parts[1]}`);
  const signature = Buffer.from(parts[2]!, 'base64url');
  const verified = candidates.some((jwk) => {
    try {
      const key = crypto.createPublicKey({ key: jwk, format: 'jwk' });
      return crypto.verify(
        alg.hash,
        data,
        {
          key,
          ...(alg.pss
            ? { padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: crypto.constants.RSA_PSS_SALTLEN_DIGEST }
            : {}),
          ...(alg.ec ? { dsaEncoding: 'ieee-p1363' as const } : {}),
        },
        signature,
      );
    } catch {
      return false;
    }
  });
  if (!verified) return 'the token signature does not verify';
  const now = Date.now() / 1000;
  if (typeof claims.exp === 'number' && now > claims.exp + 30) return 'the token has expired';
  if (typeof claims.nbf === 'number' && now < claims.nbf - 30) return 'the token is not valid yet';
  return null;
}
