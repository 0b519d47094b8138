#!/usr/bin/env node
// The opsdeck command: builds what is stale (fast when nothing changed), then runs the CLI.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
execFileSync(process.execPath, [path.join(root, 'scripts/ensure-built.mjs')], { stdio: 'inherit' });
await import(path.join(root, 'server/dist/cli.js'));
