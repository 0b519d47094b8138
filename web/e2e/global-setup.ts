// Before the e2e files: build the web console when a source is newer than web/dist, so the tests
// always run against the current code (the server runs in-process from its TypeScript source).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export default function setup() {
  // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle.
  const env = { ...process.env, NODE_ENV: 'production' };
  // E2E_WEB_DIR: build into a private directory (always), e.g. when several people or agents
  // work in one checkout and must not overwrite each other's web/dist.
  const privateDir = process.env.E2E_WEB_DIR;
  if (privateDir) {
    const vite = path.join(root, 'node_modules/vite/bin/vite.js');
    const built = spawnSync(process.execPath, [vite, 'build', '--outDir', path.resolve(privateDir), '--emptyOutDir'], {
      cwd: path.join(root, 'web'),
      stdio: 'inherit',
      env,
    });
    if (built.status !== 0) throw new Error(`building the web console into ${privateDir} failed (see above)`);
  }
  const { status } = privateDir
    ? { status: 0 }
    : spawnSync(process.execPath, [path.join(root, 'scripts/ensure-built.mjs'), 'web'], {
        cwd: root,
        stdio: 'inherit',
        env,
      });
  if (status !== 0) throw new Error('building the web console for the e2e tests failed (see above)');
  if (!fs.existsSync('/usr/bin/chromium')) {
    throw new Error('Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)');
  }
}
