// Pull requests for the gitops action through the hosting service's REST API: GitHub
// (`POST {api}/repos/{owner}/{repo}/pulls`, labels from `pr.tags`) and GitLab
// (`POST {url}/api/v4/projects/{path}/merge_requests`). The API base is the connection's URL (GitHub:
// https://api.github.com by default; GitLab: https://gitlab.com), so a loopback stand-in can take the
// calls in tests. The token is sent in a header only and never appears in an error.
export type HostingService = 'github' | 'gitlab';

export interface PullRequestInput {
  service: HostingService;
  /** The API base (GitHub) or the server (GitLab); empty for the public service. */
  apiUrl: string;
  token: string;
  /** The repository's URL or path: its last path segments name it (owner/repo, group/project). */
  repoUrl: string;
  head: string;
  base: string;
  title: string;
  body: string;
  tags: string[];
  signal: AbortSignal;
}

export interface PullRequest {
  url: string;
  number: number;
  /** True when one was already open for the branch (a re-run): that one is returned. */
  existing?: boolean;
}

export class HostingError extends Error {}

/**
 * `owner/repo` of a repository URL for GitHub (its last two segments); for GitLab the whole path of a
 * remote URL (groups nest), the last two segments of a local path.
 */
export function repositoryPath(repoUrl: string, service: HostingService): string {
  let p = repoUrl.trim();
  const scp = /^[\w.-]+@[\w.-]+:(.+)$/.exec(p);
  const remote = !!scp || /^(?!file:)[a-z][a-z0-9+.-]*:\/\//i.test(p);
  if (scp) p = scp[1]!;
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(p)) p = new URL(p).pathname;
  const segments = p
    .replace(/\.git\/?$/, '')
    .split('/')
    .filter(Boolean);
  if (segments.length < 2) throw new HostingError(`cannot tell the repository from ${JSON.stringify(repoUrl)}`);
  return (service === 'gitlab' && remote ? segments : segments.slice(-2)).join('/');
}

async function call(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown; signal: AbortSignal },
): Promise<{ status: number; json: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: { 'content-type': 'application/json', 'user-agent': 'opsdeck', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (e) {
    throw new HostingError(`${init.method} ${url} failed: ${(e as Error).message}`);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { message: text.slice(0, 300) };
  }
  return { status: res.status, json };
}

function complaint(json: unknown): string {
  const o = (json ?? {}) as { message?: unknown; error?: unknown; errors?: { message?: string }[] };
  const detail = o.errors
    ?.map((e) => e.message)
    .filter(Boolean)
    .join('; ');
  const message = typeof o.message === 'string' ? o.message : Array.isArray(o.message) ? o.message.join('; ') : '';
  return [message || (typeof o.error === 'string' ? o.error : ''), detail].filter(Boolean).join(': ') || 'no detail';
}

async function github(input: PullRequestInput): Promise<PullRequest> {
  const api = (input.apiUrl || 'https://api.github.com').replace(/\/+$/, '');
  const repo = repositoryPath(input.repoUrl, 'github');
  const headers = {
    authorization: `Bearer ${input.token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
  };
  const created = await call(`${api}/repos/${repo}/pulls`, {
    method: 'POST',
    headers,
    body: { title: input.title, head: input.head, base: input.base, body: input.body },
    signal: input.signal,
  });
  let pr: PullRequest;
  if (created.status === 201) {
    const j = created.json as { html_url: string; number: number };
    pr = { url: j.html_url, number: j.number };
  } else if (created.status === 422 && /already exists/i.test(JSON.stringify(created.json))) {
    const owner = repo.split('/')[0]!;
    const open = await call(
      `${api}/repos/${repo}/pulls?state=open&head=${encodeURIComponent(`${owner}:${input.head}`)}`,
      { method: 'GET', headers, signal: input.signal },
    );
    const first = Array.isArray(open.json)
      ? (open.json[0] as { html_url: string; number: number } | undefined)
      : undefined;
    if (!first) throw new HostingError(`GitHub says a pull request exists for ${input.head} but did not list it`);
    pr = { url: first.html_url, number: first.number, existing: true };
  } else {
    throw new HostingError(`GitHub refused the pull request (HTTP ${created.status}): ${complaint(created.json)}`);
  }
  if (input.tags.length) {
    const labels = await call(`${api}/repos/${repo}/issues/${pr.number}/labels`, {
      method: 'POST',
      headers,
      body: { labels: input.tags },
      signal: input.signal,
    });
    if (labels.status >= 300)
      throw new HostingError(
        `GitHub refused the labels of ${pr.url} (HTTP ${labels.status}): ${complaint(labels.json)}`,
      );
  }
  return pr;
}

async function gitlab(input: PullRequestInput): Promise<PullRequest> {
  const server = (input.apiUrl || 'https://gitlab.com').replace(/\/+$/, '').replace(/\/api\/v4$/, '');
  const project = encodeURIComponent(repositoryPath(input.repoUrl, 'gitlab'));
  const created = await call(`${server}/api/v4/projects/${project}/merge_requests`, {
    method: 'POST',
    headers: { 'private-token': input.token },
    body: {
      source_branch: input.head,
      target_branch: input.base,
      title: input.title,
      description: input.body,
      ...(input.tags.length ? { labels: input.tags.join(',') } : {}),
    },
    signal: input.signal,
  });
  if (created.status !== 201)
    throw new HostingError(`GitLab refused the merge request (HTTP ${created.status}): ${complaint(created.json)}`);
  const j = created.json as { web_url: string; iid: number };
  return { url: j.web_url, number: j.iid };
}

export function openPullRequest(input: PullRequestInput): Promise<PullRequest> {
  return input.service === 'github' ? github(input) : gitlab(input);
}
