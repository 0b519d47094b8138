// Before the e2e files: build the web console when a source is newer than web/dist, so the tests
// always run against the current code (the server runs in-process from its TypeScript source).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export default function setup() {
  // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle.
  const env = { ...process.env, NODE_ENV: 'production' };
  const { status } = spawnSync(process.execPath, [path.join(root, 'scripts/ensure-built.mjs'), 'web'], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  if (status !== 0) throw new Error('building the web console for the e2e tests failed (see above)');
  if (!fs.existsSync('/usr/bin/chromium')) {
    throw new Error('Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)');
  }
}
