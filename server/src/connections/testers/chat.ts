// Tests of chat services that send nothing: Slack `auth.test` with a bot token (a webhook URL is only
// probed: posting to it would send a message), Discord's webhook info (`GET /webhooks/{id}/{token}`),
// Telegram `getMe`, Mattermost's ping, and a probe of Teams / Google Chat webhook URLs.
import { httpRequest, jsonOf, joinUrl, originOf, parseHttpUrl, statusFailure } from './httpClient.js';
import { required, TestFailure, type ConnectionTester, type TestContext } from './tester.js';

/**
 * A webhook URL is checked without calling it (a POST would deliver a message): its shape, and a GET
 * proving the host answers. 5xx and network failures fail; `unknown` bodies (a service's words for a
 * webhook that does not exist) fail too.
 */
async function probeWebhook(service: string, raw: string, ctx: TestContext, unknown?: RegExp) {
  const url = parseHttpUrl(raw, `${service} webhook URL`);
  const answer = await httpRequest(url, {}, ctx);
  if (answer.status >= 500) throw new TestFailure(`${service} webhook host ${url.host} answered ${answer.statusLine}`);
  if (unknown?.test(answer.body))
    throw new TestFailure(
      `${service} says the webhook does not exist: ${answer.statusLine} ${answer.body.trim().slice(0, 80)}`,
    );
  return {
    details:
      `webhook URL is well formed and ${originOf(url)} answered GET with ${answer.statusLine}; ` +
      'no message was sent, so the webhook token itself is not verified',
  };
}

export const slackTester: ConnectionTester = {
  types: ['slack'],
  async test(conn, ctx) {
    const secret = required(conn.password, 'Bot token or webhook URL');
    if (/^https?:\/\//i.test(secret))
      return probeWebhook('Slack', secret, ctx, /\b(no_service|no_team|invalid_token|team_disabled)\b/);
    const url = parseHttpUrl(joinUrl(conn.url || 'https://slack.com/api', 'auth.test'));
    const answer = await httpRequest(
      url,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/x-www-form-urlencoded' },
      },
      ctx,
    );
    const body = jsonOf<{ ok?: boolean; error?: string; user?: string; team?: string }>(answer);
    if (answer.status === 200 && body?.ok)
      return { details: `auth.test accepted the bot token: user ${body.user ?? '?'} in workspace ${body.team ?? '?'}` };
    if (body && body.ok === false) throw new TestFailure(`Slack refused the token: ${body.error ?? 'not ok'}`);
    throw statusFailure('Slack', answer);
  },
};

export const discordTester: ConnectionTester = {
  types: ['discord'],
  async test(conn, ctx) {
    const id = required(conn.username, 'Webhook ID');
    const token = required(conn.password, 'Token');
    const url = parseHttpUrl(
      joinUrl(conn.url || 'https://discord.com/api', `webhooks/${encodeURIComponent(id)}/${encodeURIComponent(token)}`),
    );
    const answer = await httpRequest(url, {}, ctx);
    const body = jsonOf<{ name?: string; channel_id?: string; message?: string }>(answer);
    if (answer.status === 200 && body?.channel_id)
      return { details: `webhook "${body.name ?? id}" of channel ${body.channel_id} found (GET, nothing sent)` };
    if (answer.status === 401 || answer.status === 404)
      throw new TestFailure(`Discord refused the webhook ID or token: ${body?.message ?? answer.statusLine}`);
    throw statusFailure('Discord', answer, body?.message);
  },
};

export const telegramTester: ConnectionTester = {
  types: ['telegram'],
  async test(conn, ctx) {
    const token = required(conn.password, 'Bot token');
    const url = parseHttpUrl(joinUrl(conn.url || 'https://api.telegram.org', `bot${token}/getMe`));
    const answer = await httpRequest(url, {}, ctx);
    const body = jsonOf<{ ok?: boolean; description?: string; result?: { username?: string } }>(answer);
    if (body?.ok) return { details: `getMe: the token belongs to bot @${body.result?.username ?? '?'}` };
    if (body && body.ok === false)
      throw new TestFailure(`Telegram refused the bot token: ${body.description ?? answer.statusLine}`);
    throw statusFailure('Telegram', answer);
  },
};

export const mattermostTester: ConnectionTester = {
  types: ['mattermost'],
  async test(conn, ctx) {
    const base = parseHttpUrl(required(conn.url, 'URL'));
    const url = new URL(joinUrl(originOf(base) + base.pathname, 'api/v4/system/ping'));
    const answer = await httpRequest(url, {}, ctx);
    const body = jsonOf<{ status?: string }>(answer);
    if (answer.status === 200 && body?.status)
      return {
        details: `Mattermost at ${originOf(url)} answered ping (${body.status}); the webhook token is only used to send, so it is not verified`,
      };
    throw statusFailure('Mattermost', answer);
  },
};

export const webhookUrlTester: ConnectionTester = {
  types: ['teams', 'googlechat'],
  async test(conn, ctx) {
    const service = conn.type === 'teams' ? 'Microsoft Teams' : 'Google Chat';
    return probeWebhook(service, required(conn.password || conn.url, 'Webhook URL'), ctx);
  },
};
