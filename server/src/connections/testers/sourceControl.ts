// Tests of source-control APIs with a personal access token: GitHub `GET /user`, GitLab
// `GET /api/v4/user` — who the token signs in as.
import { httpRequest, jsonOf, joinUrl, originOf, parseHttpUrl, statusFailure } from './httpClient.js';
import { required, type ConnectionTester } from './tester.js';

export const githubTester: ConnectionTester = {
  types: ['github'],
  async test(conn, ctx) {
    const token = required(conn.password, 'Personal access token');
    const url = parseHttpUrl(joinUrl(conn.url || 'https://api.github.com', 'user'));
    const answer = await httpRequest(
      url,
      {
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
        },
      },
      ctx,
    );
    const body = jsonOf<{ login?: string; message?: string }>(answer);
    if (answer.status === 200 && body?.login)
      return { details: `GET ${originOf(url)}${url.pathname}: signed in as ${body.login}` };
    throw statusFailure('GitHub', answer, body?.message);
  },
};

export const gitlabTester: ConnectionTester = {
  types: ['gitlab'],
  async test(conn, ctx) {
    const token = required(conn.password, 'Personal access token');
    const url = parseHttpUrl(joinUrl(conn.url || 'https://gitlab.com', 'api/v4/user'));
    const answer = await httpRequest(url, { headers: { 'private-token': token } }, ctx);
    const body = jsonOf<{ username?: string; message?: string }>(answer);
    if (answer.status === 200 && body?.username)
      return { details: `GET ${originOf(url)}${url.pathname}: signed in as ${body.username}` };
    throw statusFailure('GitLab', answer, body?.message);
  },
};
