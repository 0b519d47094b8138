// Playbook approvals in three browsers: a requester (editor) runs a playbook whose `approval` is `all`
// of approvers A and B from its card; the run waits as 'Pending Approval' with no Approve button for
// the requester; A, in her own browser context, sees the "awaits your approval" badge, opens the run
// from it and approves (still waiting, her approval listed); B approves in his; the real runner then
// runs it to completed, which the requester's page shows with both approvals.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { expect, expectToast, SCREENS_DIR, useConsole, waitForUrl } from './harness.js';

const app = useConsole();
const PASSWORD = 'approvals-password-1';

/** Invites a person through the API as the signed-in admin and accepts the invite. */
async function createUser(admin: Page, first: string, email: string, role: string): Promise<void> {
  const headers = { origin: app.url };
  const invited = await admin.request.post('/api/users/invite', {
    data: { firstName: first, lastName: 'Approver', email, role },
    headers,
  });
  if (!invited.ok()) throw new Error(`invite failed: ${invited.status()} ${await invited.text()}`);
  const { link } = (await invited.json()) as { link: string };
  const token = new URL(link, app.url).searchParams.get('invite');
  const accepted = await admin.request.post('/api/auth/invite/accept', {
    data: { token, password: PASSWORD },
    headers,
  });
  if (!accepted.ok()) throw new Error(`accept failed: ${accepted.status()} ${await accepted.text()}`);
}

const PLAYBOOK = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata:
  name: e2e-guarded-restart
  namespace: default
spec:
  title: Guarded restart
  category: E2E
  approval:
    type: all
    approvers:
      people: [ann@approvals.example.com, bob@approvals.example.com]
  actions:
    - name: restart
      exec:
        script: echo "restarted after approval"
`;

async function signedIn(email: string): Promise<Page> {
  const page = await app.newPage();
  await app.signIn(page, email, PASSWORD);
  return page;
}

const status = (page: Page) => page.getByTestId('run-status').first().textContent();

async function approve(page: Page, runUrl: string) {
  await page.goto(runUrl);
  const panel = page.getByTestId('run-approval');
  await panel.waitFor();
  await panel.getByRole('button', { name: 'Approve' }).click();
  await expectToast(page, 'Run approved');
}

describe('playbook approvals', () => {
  it('waits for approvers A and B in their own browsers, then runs to completion', async () => {
    const admin = await app.adminPage();
    await createUser(admin, 'Rita', 'rita@approvals.example.com', 'editor');
    await createUser(admin, 'Ann', 'ann@approvals.example.com', 'viewer');
    await createUser(admin, 'Bob', 'bob@approvals.example.com', 'responder');
    const applied = await admin.request.post('/api/playbook', {
      data: PLAYBOOK,
      headers: { origin: app.url, 'content-type': 'application/yaml' },
    });
    expect(applied.ok(), await applied.text()).toBe(true);

    // The requester runs it from its card and lands on the run, which waits.
    const rita = await signedIn('rita@approvals.example.com');
    await rita.goto('/playbooks');
    await rita.getByRole('button', { name: 'Run Guarded restart' }).click();
    const modal = rita.getByRole('dialog', { name: 'Guarded restart' });
    await modal.getByRole('button', { name: 'Run', exact: true }).click();
    const url = await waitForUrl(rita, (u) => /^\/playbooks\/runs\/[0-9a-f-]{36}$/.test(u.pathname), 15_000);
    const runUrl = url.pathname;
    await expect.poll(() => status(rita)).toBe('Pending Approval');
    const ritaPanel = rita.getByTestId('run-approval');
    await ritaPanel.getByText('All approvers must approve').waitFor();
    await ritaPanel.getByText('Ann Approver, Bob Approver').waitFor();
    expect(await ritaPanel.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await rita.waitForTimeout(1_500); // the runner polls every 500 ms: it must leave the run alone
    expect(await status(rita)).toBe('Pending Approval');

    // Approver A: the badge leads to the runs awaiting her approval; she approves, it still waits.
    const ann = await signedIn('ann@approvals.example.com');
    await ann.goto('/playbooks/runs');
    const badge = ann.getByTestId('awaiting-approval');
    await expect.poll(() => badge.textContent()).toContain('1 run awaits your approval');
    await badge.click();
    await waitForUrl(ann, (u) => u.searchParams.get('status') === 'pending_approval');
    await approve(ann, runUrl);
    await ann.getByTestId('run-approvals').getByText('Ann Approver').waitFor();
    expect(await status(ann)).toBe('Pending Approval');
    expect(await ann.getByTestId('run-approval').getByRole('button', { name: 'Approve' }).count()).toBe(0);
    fs.mkdirSync(SCREENS_DIR, { recursive: true });
    await ann.screenshot({ path: path.join(SCREENS_DIR, 'light-playbook-run-approval.png') });

    // Approver B approves: the run starts and completes.
    const bob = await signedIn('bob@approvals.example.com');
    await approve(bob, runUrl);
    await expect.poll(() => status(bob), { timeout: 20_000 }).toBe('completed');

    // The requester's page follows (it polls) and lists both approvals.
    await expect.poll(() => status(rita), { timeout: 20_000 }).toBe('completed');
    const approvals = rita.getByTestId('run-approvals');
    await approvals.getByText('Ann Approver').waitFor();
    await approvals.getByText('Bob Approver').waitFor();
    await rita.getByText('restarted after approval').waitFor();
  });
});
