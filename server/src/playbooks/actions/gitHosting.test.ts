// Pull requests through the hosting APIs: which repository a URL names, and the GitLab merge
// request call (path, token header, body) against a loopback stand-in.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPullRequest, repositoryPath } from './gitHosting.js';

describe('pull requests', () => {
  it('names the repository from https, scp-like, file and local addresses', () => {
    expect(repositoryPath('https://github.com/acme/apps.git', 'github')).toBe('acme/apps');
    expect(repositoryPath('git@github.com:acme/apps.git', 'github')).toBe('acme/apps');
    expect(repositoryPath('https://gitlab.com/group/sub/project.git', 'gitlab')).toBe('group/sub/project');
    expect(repositoryPath('/srv/git/team/app.git', 'gitlab')).toBe('team/app');
    expect(repositoryPath('file:///srv/git/team/app.git', 'github')).toBe('team/app');
    expect(() => repositoryPath('app.git', 'github')).toThrow(/cannot tell the repository/);
  });

  describe('GitLab', () => {
    let server: http.Server;
    let url = '';
    const received: { url: string; token: unknown; body: unknown }[] = [];
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        let text = '';
        req.on('data', (c: Buffer) => (text += c.toString()));
        req.on('end', () => {
          received.push({ url: req.url!, token: req.headers['private-token'], body: JSON.parse(text) });
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ iid: 12, web_url: 'https://gitlab.example/group/sub/project/-/merge_requests/12' }));
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('opens a merge request with the token in PRIVATE-TOKEN and the labels joined', async () => {
      const pr = await openPullRequest({
        service: 'gitlab',
        apiUrl: url,
        token: 'glpat-secret',
        repoUrl: 'https://gitlab.com/group/sub/project.git',
        head: 'scale',
        base: 'main',
        title: 'Scale',
        body: 'Scale web',
        tags: ['ops', 'web'],
        signal: AbortSignal.timeout(5_000),
      });
      expect(pr).toEqual({ url: 'https://gitlab.example/group/sub/project/-/merge_requests/12', number: 12 });
      expect(received).toEqual([
        {
          url: '/api/v4/projects/group%2Fsub%2Fproject/merge_requests',
          token: 'glpat-secret',
          body: {
            source_branch: 'scale',
            target_branch: 'main',
            title: 'Scale',
            description: 'Scale web',
            labels: 'ops,web',
          },
        },
      ]);
    });
  });
});
