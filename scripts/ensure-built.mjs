#!/usr/bin/env node
// Run by `npm start` before the server: builds the web console and the server bundle only when an
// output is missing or older than one of its sources, so an unchanged checkout starts at once.
// Arguments name the targets to check (`web`, `server`); none means both. The e2e tests run the
// server from source and only need `web`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

const allTargets = [
  {
    id: 'web',
    name: 'web console',
    output: 'web/dist/index.html',
    sources: [
      'web/src',
      'web/public',
      'web/build',
      'web/index.html',
      'web/vite.config.ts',
      'common/src',
      'package-lock.json',
    ],
    command: [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'],
    cwd: 'web',
  },
  {
    id: 'server',
    name: 'server',
    output: 'server/dist/cli.js',
    sources: ['server/src', 'server/build.mjs', 'common/src'],
    command: [path.join(root, 'server/build.mjs')],
    cwd: 'server',
  },
];

const wanted = process.argv.slice(2);
const targets = wanted.length ? allTargets.filter((t) => wanted.includes(t.id)) : allTargets;

/** Newest modification time under a file or directory (tests excluded), with the file that has it. */
function newest(rel) {
  let best = { mtime: 0, file: rel };
  const visit = (abs) => {
    let stat;
    try {
      stat = fs.statSync(abs);
    } catch {
      return; // optional source (e.g. web/public) that does not exist
    }
    if (stat.isDirectory()) {
      // A directory's own mtime changes when a file is deleted or renamed in it.
      if (stat.mtimeMs > best.mtime) best = { mtime: stat.mtimeMs, file: path.relative(root, abs) };
      for (const entry of fs.readdirSync(abs)) visit(path.join(abs, entry));
    } else if (!/\.test\.tsx?$/.test(abs) && stat.mtimeMs > best.mtime) {
      best = { mtime: stat.mtimeMs, file: path.relative(root, abs) };
    }
  };
  visit(path.join(root, rel));
  return best;
}

for (const target of targets) {
  let reason;
  const outputStat = fs.statSync(path.join(root, target.output), { throwIfNoEntry: false });
  if (!outputStat) {
    reason = `${target.output} is missing`;
  } else {
    const changed = target.sources.map(newest).find((s) => s.mtime > outputStat.mtimeMs);
    if (changed) reason = `${changed.file} changed`;
  }
  if (!reason) continue;

  console.log(`Building the ${target.name} (${reason})…`);
  const { status } = spawnSync(process.execPath, target.command, {
    cwd: path.join(root, target.cwd),
    stdio: 'inherit',
  });
  if (status !== 0) {
    console.error(`Building the ${target.name} failed; fix the errors above and run npm start again.`);
    process.exit(status ?? 1);
  }
  // An unchanged build output keeps its old mtime; touch it so the next start sees it as fresh.
  const now = new Date();
  fs.utimesSync(path.join(root, target.output), now, now);
}
