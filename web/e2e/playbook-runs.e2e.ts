// Playbook runs end to end against a real server and the real runner: two playbooks applied from
// YAML (two exec actions, the second exiting 3 with stderr; an action skipped by `if: "false"`),
// runs started through POST /api/playbook/run on a seeded catalog item and component, executed as
// real child processes. Then the run page (steps, the last action selected, its stderr, the failed
// status, a skipped step that cannot be selected, 'Not found'), the runs list with its status
// filter in the query string, the catalog item's Playbooks tab with its badge and the component's
// 'Playbook runs' side-panel section.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';

const app = useConsole();
let configId = '';
let componentId = '';
let failedRun = '';
let completedRun = '';

const one = async <T>(sql: string, params: unknown[] = []): Promise<T> =>
  (await app.db.query<T>(sql, params)).rows[0] as T;

const FAILING = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: e2e-failing
  namespace: default
spec:
  title: E2E failing playbook
  category: E2E
  configs:
    - name: e2e-*
  parameters:
    - name: note
      label: Note
      default: hello
  actions:
    - name: greet
      exec:
        script: echo "greeting from e2e"
    - name: break
      exec:
        script: |
          echo "about to fail"
          echo "disk quota exceeded" >&2
          exit 3
`;

const SKIPPING = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: e2e-skipping
  namespace: default
spec:
  title: E2E skipping playbook
  category: E2E
  components:
    - name: e2e-*
  actions:
    - name: check
      exec:
        script: echo "all good"
    - name: never
      if: "false"
      exec:
        script: echo "never printed"
`;

const SLEEPING = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: e2e-sleeping
  namespace: default
spec:
  title: E2E sleeping playbook
  configs:
    - name: e2e-*
  actions:
    - name: wait
      exec:
        script: |
          echo "waiting"
          sleep 60
`;

async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENS_DIR, { recursive: true });
  await page.waitForTimeout(300); // let transitions settle
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`) });
}

async function api<T>(
  page: Page,
  method: 'GET' | 'POST',
  url: string,
  data?: string,
  contentType = 'application/json',
) {
  const res = await page.request.fetch(url, {
    method,
    data,
    headers: { 'content-type': contentType, origin: app.url },
  });
  const text = await res.text();
  if (res.status() >= 300) throw new Error(`${method} ${url}: ${res.status()} ${text}`);
  return JSON.parse(text) as T;
}

async function applyPlaybook(page: Page, yaml: string): Promise<string> {
  const body = await api<{ applied: Array<{ id: string }> }>(page, 'POST', '/api/playbook', yaml, 'application/yaml');
  return body.applied[0].id;
}

async function runToEnd(page: Page, request: Record<string, unknown>): Promise<string> {
  const { run_id } = await api<{ run_id: string }>(page, 'POST', '/api/playbook/run', JSON.stringify(request));
  await expect
    .poll(async () => (await api<{ status: string }>(page, 'GET', `/api/playbook/run/${run_id}`)).status, {
      timeout: 30_000,
      interval: 250,
    })
    .toMatch(/^(completed|failed|cancelled)$/);
  return run_id;
}

const stepNames = (page: Page) => page.getByTestId('run-step').allTextContents();
const selectedStep = (page: Page) => page.locator('[data-testid="run-step"] button[aria-current="step"]').textContent();

describe('playbook runs', () => {
  it('runs two playbooks on a seeded catalog item and component through the API', async () => {
    const page = await app.adminPage();
    // Test data: a catalog item and a component (the catalog and topology engines would have made them).
    configId = (
      await one<{ id: string }>(
        `INSERT INTO config_items (external_id, type, config_class, name, health, status)
         VALUES ('e2e/runs-db', 'Postgres::Database', 'Database', 'e2e-runs-db', 'healthy', 'Running') RETURNING id`,
      )
    ).id;
    componentId = (
      await one<{ id: string }>(
        "INSERT INTO components (name, type, health) VALUES ('e2e-runs-api', 'Service', 'healthy') RETURNING id",
      )
    ).id;
    const failing = await applyPlaybook(page, FAILING);
    const skipping = await applyPlaybook(page, SKIPPING);

    failedRun = await runToEnd(page, { id: failing, config_id: configId, params: { note: 'from the e2e test' } });
    completedRun = await runToEnd(page, { id: skipping, component_id: componentId });

    const runs = await app.db.query<{ id: string; status: string }>(
      'SELECT id, status FROM playbook_runs ORDER BY created_at',
    );
    expect(runs.rows).toEqual([
      { id: failedRun, status: 'failed' },
      { id: completedRun, status: 'completed' },
    ]);
    const actions = await app.db.query<{ name: string; status: string }>(
      'SELECT name, status FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index',
      [completedRun],
    );
    expect(actions.rows).toEqual([
      { name: 'check', status: 'completed' },
      { name: 'never', status: 'skipped' },
    ]);
  });

  it('shows a failed run: its steps, the last action selected with its stderr, and its header', async () => {
    const page = await app.adminPage();
    await page.goto(`/playbooks/runs/${failedRun}`);
    await expect.poll(() => page.getByTestId('run-status').first().textContent()).toBe('failed');
    // The failing action carries the error (no Initialization step: the run started); the last action is selected.
    await expect
      .poll(() => stepNames(page))
      .toEqual([expect.stringContaining('greet'), expect.stringContaining('break')]);
    await expect.poll(() => selectedStep(page)).toContain('break');
    const output = page.getByTestId('step-output');
    await expect.poll(() => output.getByTestId('output-stderr').textContent()).toContain('disk quota exceeded');
    await expect.poll(() => output.getByTestId('output-stdout').textContent()).toContain('about to fail');
    expect(await output.getByTestId('output-result').textContent()).toContain('"exitCode": 3');

    const info = page.getByTestId('run-info');
    expect(await info.getByRole('link', { name: 'e2e-runs-db' }).getAttribute('href')).toBe(`/catalog/${configId}`);
    await expect.poll(() => info.textContent()).toContain('Administrator');
    expect(await page.getByTestId('run-parameters').textContent()).toContain('from the e2e test');
    expect(await page.getByRole('link', { name: 'E2E failing playbook' }).getAttribute('href')).toMatch(
      /^\/playbooks\/[0-9a-f-]{36}$/,
    );
    // A finished run offers Re-run but no Cancel.
    await page.getByRole('button', { name: 'Re-run' }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);

    await page.getByRole('button', { name: /greet/ }).click();
    await expect.poll(() => selectedStep(page)).toContain('greet');
    await expect.poll(() => output.getByTestId('output-stdout').textContent()).toContain('greeting from e2e');
    expect(await output.getByTestId('output-stderr').count()).toBe(0);

    await page.getByRole('button', { name: /break/ }).click();
    await expect.poll(() => output.getByTestId('output-error').textContent()).toContain('disk quota exceeded');
    await screenshot(page, 'light-playbook-run');
  });

  it('does not let a skipped step be selected, and says Not found for an unknown run', async () => {
    const page = await app.adminPage();
    await page.goto(`/playbooks/runs/${completedRun}`);
    await expect.poll(() => page.getByTestId('run-status').first().textContent()).toBe('completed');
    await expect
      .poll(() => stepNames(page))
      .toEqual([expect.stringContaining('check'), expect.stringContaining('never')]);
    const never = page.locator('[data-testid="run-step"][data-status="skipped"] button');
    expect(await never.isDisabled()).toBe(true);
    // The last action that ran is selected by default.
    await expect.poll(() => selectedStep(page)).toContain('check');
    await expect.poll(() => page.getByTestId('output-stdout').textContent()).toContain('all good');

    await page.goto('/playbooks/runs/00000000-0000-4000-8000-000000000001');
    await page.getByText('Not found', { exact: true }).waitFor();
  });

  it('lists both runs over the last 7 days and filters them by status in the query string', async () => {
    const page = await app.adminPage();
    await page.goto('/playbooks/runs');
    const url = await waitForUrl(page, (u) => u.searchParams.get('range') === 'now-7d');
    expect(url.pathname).toBe('/playbooks/runs');
    const table = page.getByRole('table', { name: 'Playbook runs' });
    const rows = () => table.locator('tbody tr').allTextContents();
    await expect
      .poll(rows)
      .toEqual([expect.stringContaining('E2E skipping playbook'), expect.stringContaining('E2E failing playbook')]);
    const all = await rows();
    expect(all[0]).toContain('e2e-runs-api');
    expect(all[1]).toContain('e2e-runs-db');
    expect(all[1]).toContain('Administrator');

    await page.getByLabel('Status').selectOption('failed');
    await waitForUrl(page, (u) => u.searchParams.get('status') === 'failed');
    await expect.poll(rows).toEqual([expect.stringContaining('E2E failing playbook')]);
    await page.getByLabel('Status').selectOption('cancelled');
    await expect.poll(rows).toEqual(['No playbook runs']);
    // A reload keeps the filter.
    await page.reload();
    await expect.poll(() => page.getByLabel('Status').inputValue()).toBe('cancelled');
    await page.getByLabel('Status').selectOption('all');
    await expect.poll(async () => (await rows()).length).toBe(2);
    await table.locator('tbody tr').filter({ hasText: 'E2E failing playbook' }).click();
    await waitForUrl(page, (u) => u.pathname === `/playbooks/runs/${failedRun}`);
  });

  it("shows the run in the catalog item's Playbooks tab, with its count", async () => {
    const page = await app.adminPage();
    await page.goto(`/catalog/${configId}/playbooks`);
    await expect.poll(() => page.getByTestId('tab-count-playbooks').textContent()).toBe('1');
    const table = page.getByTestId('config-playbooks').getByRole('table', { name: 'Playbook runs' });
    await expect
      .poll(() => table.locator('tbody tr').allTextContents())
      .toEqual([expect.stringContaining('E2E failing playbook')]);
    await table.locator('tbody tr').first().click();
    await waitForUrl(page, (u) => u.pathname === `/playbooks/runs/${failedRun}`);
  });

  it("lists the component's runs in its side panel's Playbook runs section", async () => {
    const page = await app.adminPage();
    await page.goto(`/topology/${componentId}`);
    const panel = page.getByTestId('component-panel');
    await panel.getByRole('button', { name: 'Playbook runs', exact: true }).click();
    const run = panel.getByTestId('panel-playbook-run');
    await expect.poll(() => run.allTextContents()).toEqual([expect.stringContaining('E2E skipping playbook')]);
    await run.getByRole('link', { name: 'E2E skipping playbook' }).click();
    await waitForUrl(page, (u) => u.pathname === `/playbooks/runs/${completedRun}`);
  });

  it('shows a run that could not start as the Initialization step with its error', async () => {
    const page = await app.adminPage();
    // A queued run whose stored spec is not a playbook (as if written by a broken import): the real
    // runner claims it and fails it before any action.
    const { id } = await one<{ id: string }>(
      `INSERT INTO playbook_runs (playbook_id, spec, status) SELECT id, '{"kind": "Playbook"}', 'pending'
       FROM playbooks WHERE name = 'e2e-skipping' RETURNING id`,
    );
    await page.goto(`/playbooks/runs/${id}`);
    await expect.poll(() => page.getByTestId('run-status').first().textContent(), { timeout: 15_000 }).toBe('failed');
    await expect.poll(() => stepNames(page)).toEqual([expect.stringContaining('Initialization')]);
    await expect.poll(() => selectedStep(page)).toContain('Initialization');
    await expect
      .poll(() => page.getByTestId('step-output').getByTestId('output-error').textContent())
      .toContain('the run could not start');
  });

  it('follows a running run as it refreshes, and cancels it', async () => {
    const page = await app.adminPage();
    const id = await applyPlaybook(page, SLEEPING);
    const { run_id } = await api<{ run_id: string }>(
      page,
      'POST',
      '/api/playbook/run',
      JSON.stringify({ id, config_id: configId }),
    );
    await page.goto(`/playbooks/runs/${run_id}`);
    // Pending at first, then running with the action's output polled in as it arrives.
    await expect.poll(() => page.getByTestId('run-status').first().textContent(), { timeout: 15_000 }).toBe('running');
    await expect.poll(() => selectedStep(page), { timeout: 15_000 }).toContain('wait');
    await expect.poll(() => page.getByTestId('run-step').first().getAttribute('data-status')).toBe('running');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expectToast(page, 'Playbook run cancelled');
    await expect.poll(() => page.getByTestId('run-status').first().textContent()).toBe('cancelled');
    await expect.poll(() => page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    expect((await one<{ status: string }>('SELECT status FROM playbook_runs WHERE id = $1', [run_id])).status).toBe(
      'cancelled',
    );
  });
});
