// Playbook actions on the screens, against a real server and runner: the run modal takes a secret
// parameter in a hidden input and a connection parameter from the stored connections; the run page
// shows the action retried once and its artifact, which downloads with the file's content; the
// secret is never shown.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import { expect, useConsole } from './harness.js';

const app = useConsole();
const SECRET = 'e2e-Secret-Token-77';

describe('playbook actions', () => {
  it('runs with a secret and a connection, retries once, and offers the artifact for download', async () => {
    const page = await app.adminPage();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-e2e-actions-'));
    const post = async (url: string, data: string, contentType = 'application/json') => {
      const res = await page.request.fetch(url, {
        method: 'POST',
        data,
        headers: { 'content-type': contentType, origin: app.url },
      });
      expect(res.status(), await res.text()).toBeLessThan(300);
    };
    await post(
      '/api/db/connections',
      JSON.stringify({ name: 'e2e-status', namespace: 'default', type: 'http', url: 'https://status.example' }),
    );
    await post(
      '/api/playbook',
      `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: e2e-actions, namespace: default}
spec:
  title: E2E actions
  parameters:
    - {name: token, label: Token, type: secret, required: true}
    - {name: target, label: Target, type: connection, required: true}
  actions:
    - name: report
      retry: {limit: 2, duration: 100ms}
      exec:
        env: [{name: TOKEN, value: "{{.params.token}}"}]
        script: |
          n=$(( $(cat ${dir}/count 2>/dev/null || echo 0) + 1 )); echo $n > ${dir}/count
          [ $n -ge 2 ] || { echo "first attempt fails" >&2; exit 1; }
          echo "target {{.params.target}}, token of \${#TOKEN} characters" > report.txt
        artifacts: [{path: report.txt}]
`,
      'application/yaml',
    );

    await page.goto('/playbooks');
    await page.getByRole('button', { name: 'Run E2E actions' }).click();
    const modal = page.getByRole('dialog', { name: 'E2E actions' });
    const token = modal.getByLabel('Token');
    expect(await token.getAttribute('type')).toBe('password');
    await token.fill(SECRET);
    const target = modal.getByLabel('Target');
    await expect.poll(() => target.locator('option').allTextContents()).toContain('e2e-status (http)');
    await target.selectOption({ label: 'e2e-status (http)' });
    await modal.getByRole('button', { name: 'Run', exact: true }).click();

    await page.waitForURL(/\/playbooks\/runs\/[0-9a-f-]{36}$/);
    await expect
      .poll(() => page.getByTestId('run-status').first().textContent(), { timeout: 30_000 })
      .toBe('completed');
    await expect.poll(() => page.getByTestId('action-retries').textContent()).toBe('Retried 1 time');
    const link = page.getByRole('link', { name: 'report.txt' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('report.txt');
    const file = await download.path();
    expect(fs.readFileSync(file, 'utf8')).toBe(
      `target connection://http/e2e-status, token of ${SECRET.length} characters\n`,
    );
    // The page shows the secret only as the mask.
    expect(await page.locator('body').textContent()).not.toContain(SECRET);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
