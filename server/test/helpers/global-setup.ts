// Runs once before the integration workers start:
// - builds the migrated PGlite snapshot, so parallel test files load it from .test-cache/ instead of
//   each running initdb and the migrations;
// - brings the server bundle (server/dist/cli.js, main.js) up to date, because the tests that spawn
//   an agent or a server process run the real build, and a fresh clone has none. Building it here,
//   once, keeps two test files from writing dist/ at the same time.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { migratedPgliteSnapshot } from './databases.js';

export default async function setup(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '../../..');
  execFileSync(process.execPath, [path.join(root, 'scripts/ensure-built.mjs'), 'server'], { stdio: 'inherit' });
  await migratedPgliteSnapshot();
}
