// Tests of alerting and push services that send nothing: Gotify (`/version`: an application token can
// only send), ntfy (polls the topic with the credentials: read access, nothing published), Opsgenie
// (`GET /v2/account` with the API key), and a generic webhook (OPTIONS only: calling it would deliver).
import {
  credentialHeaders,
  httpRequest,
  jsonOf,
  joinUrl,
  originOf,
  parseHttpUrl,
  statusFailure,
} from './httpClient.js';
import { prop, required, TestFailure, type ConnectionTester } from './tester.js';

export const gotifyTester: ConnectionTester = {
  types: ['gotify'],
  async test(conn, ctx) {
    const url = parseHttpUrl(joinUrl(required(conn.url, 'Host'), 'version'));
    const answer = await httpRequest(url, {}, ctx);
    const body = jsonOf<{ version?: string }>(answer);
    if (answer.status === 200 && body?.version)
      return {
        details: `Gotify ${body.version} at ${originOf(url)} answered /version; an application token can only send messages, so it is not verified`,
      };
    throw statusFailure('Gotify', answer);
  },
};

export const ntfyTester: ConnectionTester = {
  types: ['ntfy'],
  async test(conn, ctx) {
    const topic = required(prop(conn, 'topic'), 'Topic');
    const url = parseHttpUrl(
      joinUrl(conn.url || 'https://ntfy.sh', `${encodeURIComponent(topic)}/json?poll=1&since=latest`),
    );
    const answer = await httpRequest(url, { headers: credentialHeaders(conn) }, ctx);
    if (answer.status === 200)
      return { details: `polled topic ${topic} on ${originOf(url)} (read access confirmed; nothing was published)` };
    if (answer.status === 401 || answer.status === 403)
      throw new TestFailure(`ntfy refused access to topic ${topic}: ${answer.statusLine}`);
    throw statusFailure('ntfy', answer);
  },
};

export const opsgenieTester: ConnectionTester = {
  types: ['opsgenie'],
  async test(conn, ctx) {
    const key = required(conn.password, 'API key');
    const host = prop(conn, 'host') || 'api.opsgenie.com';
    const port = prop(conn, 'port') || '443';
    const url = parseHttpUrl(`https://${host}:${port}/v2/account`, 'Host');
    const answer = await httpRequest(url, { headers: { authorization: `GenieKey ${key}` } }, ctx);
    const body = jsonOf<{ data?: { name?: string }; message?: string }>(answer);
    if (answer.status === 200) return { details: `Opsgenie accepted the API key (account ${body?.data?.name ?? '?'})` };
    if (answer.status === 403)
      return {
        details: `Opsgenie accepted the API key; it may not read account info (${body?.message ?? answer.statusLine})`,
      };
    throw statusFailure('Opsgenie', answer, body?.message);
  },
};

export const genericWebhookTester: ConnectionTester = {
  types: ['generic_webhook'],
  async test(conn, ctx) {
    const url = parseHttpUrl(required(conn.url, 'URL'));
    const answer = await httpRequest(url, { method: 'OPTIONS', insecureTls: conn.insecureTls }, ctx);
    if (answer.status >= 500) throw new TestFailure(`${url.host} answered OPTIONS with ${answer.statusLine}`);
    return {
      details: `${originOf(url)} answered OPTIONS with ${answer.statusLine}; the webhook itself is not called (that would deliver a message)`,
    };
  },
};
