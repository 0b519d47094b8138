// The folder check on local paths: lists the files (recursively if asked) that pass filter, then
// judges count, age of the newest/oldest, size of the smallest/largest and free space, in
// canary-checker's order.
import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { abortMessage, commonFields, errorText, fail, invalid } from './common.js';
import { durationSchema } from '../../connections/duration.js';
import { durationMs, formatDuration, formatSize, isSize, parseSize } from '../../connections/duration.js';

/** At most this many files are listed in results.files (count and size still cover all of them). */
export const MAX_LISTED_FILES = 1_000;

const sizeSchema = z.union([
  z.number().nonnegative(),
  z.string().refine(isSize, { message: 'not a size (examples: 512, 10KB, 1.5MB, 2GB)' }),
]);

const regexSchema = z.string().refine(
  (s) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);

const filterSchema = z.looseObject({
  minAge: durationSchema.optional(),
  maxAge: durationSchema.optional(),
  since: z.string().optional(),
  minSize: sizeSchema.optional(),
  maxSize: sizeSchema.optional(),
  regex: regexSchema.optional(),
});

export const folderSchema = z.looseObject({
  ...commonFields,
  path: z.string({ error: 'path is required (the folder to check)' }).min(1, 'path is required (the folder to check)'),
  recursive: z.boolean().optional(),
  filter: filterSchema.optional(),
  /** The newest file must be at least this old. */
  minAge: durationSchema.optional(),
  /** The oldest file must be at most this old. */
  maxAge: durationSchema.optional(),
  minCount: z.number().int().nonnegative().optional(),
  maxCount: z.number().int().nonnegative().optional(),
  /** The smallest file must be at least this big. */
  minSize: sizeSchema.optional(),
  /** The largest file must be at most this big. */
  maxSize: sizeSchema.optional(),
  /** Free space on the file system holding the folder must be at least this much. */
  availableSize: sizeSchema.optional(),
  /** The file system holding the folder must be at least this big. */
  totalSize: sizeSchema.optional(),
  awsConnection: z.looseObject({}).optional(),
  gcpConnection: z.looseObject({}).optional(),
  smbConnection: z.looseObject({}).optional(),
  sftpConnection: z.looseObject({}).optional(),
});

export type FolderSpec = z.infer<typeof folderSchema>;

export interface FileEntry {
  /** Path relative to the folder. */
  name: string;
  size: number;
  /** ISO timestamp of the last modification. */
  modified: string;
}

interface Filter {
  minAgeMs?: number;
  maxAgeMs?: number;
  since?: number;
  minSize?: number;
  maxSize?: number;
  regex?: RegExp;
}

/** "2024-05-01T10:00:00Z", "2024-05-01T10:00:00" (UTC) or "now-1h"; undefined when unreadable. */
function parseSince(text: string, now: number): number | undefined {
  const rel = /^now\s*(?:([+-])\s*(.+))?$/i.exec(text.trim());
  if (rel) {
    if (!rel[1]) return now;
    try {
      const d = durationMs(rel[2]!);
      return rel[1] === '-' ? now - d : now + d;
    } catch {
      return undefined;
    }
  }
  const withZone = /[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`;
  const t = Date.parse(withZone);
  return Number.isNaN(t) ? undefined : t;
}

function keep(f: Filter, st: Stats, name: string, now: number): boolean {
  const age = now - st.mtimeMs;
  if (f.maxAgeMs !== undefined && age > f.maxAgeMs) return false;
  if (f.minAgeMs !== undefined && age < f.minAgeMs) return false;
  if (f.minSize !== undefined && st.size < f.minSize) return false;
  if (f.maxSize !== undefined && st.size > f.maxSize) return false;
  if (f.regex && !f.regex.test(name)) return false;
  if (f.since !== undefined && st.mtimeMs < f.since) return false;
  return true;
}

/**
 * A glob path (`/var/log/*.log`, `/data/**`) as the folder to list (the part before the first segment
 * with a wildcard), a test on each file's full path, and whether to descend; undefined for a plain path.
 */
export function globPath(p: string): { base: string; match: RegExp; recursive: boolean } | undefined {
  if (!/[*?[]/.test(p)) return undefined;
  const segments = p.split('/');
  const first = segments.findIndex((seg) => /[*?[]/.test(seg));
  const base = segments.slice(0, first).join('/') || (p.startsWith('/') ? '/' : '.');
  const rest = segments.slice(first);
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*' && p[i + 1] === '*') {
      // `**/` matches any number of folders (none included); a trailing `**` anything below.
      if (p[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = p.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${p
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return { base, match: new RegExp(`^${re}$`), recursive: rest.length > 1 || p.includes('**') };
}

class Aborted extends Error {}

async function walk(
  root: string,
  rel: string,
  recursive: boolean,
  filter: Filter,
  now: number,
  signal: AbortSignal,
  out: Array<FileEntry & { mtimeMs: number }>,
): Promise<void> {
  if (signal.aborted) throw new Aborted();
  const dir = path.join(root, rel);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    // A subfolder that vanished between listing and reading is not an error.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && rel) return;
    throw e;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relName = rel ? path.join(rel, entry.name) : entry.name;
    const full = path.join(root, relName);
    if (entry.isDirectory()) {
      if (recursive) await walk(root, relName, recursive, filter, now, signal, out);
      continue;
    }
    let st: Stats;
    try {
      // Symlinks are listed by what they point to, and not followed into directories.
      st = entry.isSymbolicLink() ? await stat(full).catch(() => lstat(full)) : await lstat(full);
    } catch {
      continue;
    }
    if (st.isDirectory()) continue;
    if (!keep(filter, st, entry.name, now)) continue;
    out.push({ name: relName, size: st.size, modified: new Date(st.mtimeMs).toISOString(), mtimeMs: st.mtimeMs });
  }
}

function fsError(e: unknown, where: string): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'EACCES' || code === 'EPERM') return `permission denied reading ${where}`;
  if (code === 'ENOTDIR') return `${where} is not a directory`;
  return `${where}: ${errorText(e)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

async function run(spec: FolderSpec, ctx: CheckContext): Promise<CheckResult> {
  const glob = globPath(spec.path);
  const folder = glob?.base ?? spec.path;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(folder)?.[1]?.toLowerCase();
  if (scheme || folder.startsWith('\\\\') || spec.sftpConnection) {
    const kind = scheme ? `${scheme}://` : folder.startsWith('\\\\') ? 'SMB (\\\\host\\share)' : 'SFTP';
    return invalid(`folder checks on ${kind} paths are not supported yet; only local paths are`);
  }
  const now = Date.now();
  const filter: Filter = {};
  try {
    const f = spec.filter;
    if (f?.minAge !== undefined) filter.minAgeMs = durationMs(f.minAge);
    if (f?.maxAge !== undefined) filter.maxAgeMs = durationMs(f.maxAge);
    if (f?.minSize !== undefined) filter.minSize = parseSize(f.minSize);
    if (f?.maxSize !== undefined) filter.maxSize = parseSize(f.maxSize);
    if (f?.regex) filter.regex = new RegExp(f.regex);
    if (f?.since) {
      const since = parseSince(f.since, now);
      if (since === undefined)
        return invalid(`filter.since "${f.since}" is not a time (examples: 2024-05-01T10:00:00Z, now-1h)`);
      // One second later, so that a previous run's newest.modified can be used as since.
      filter.since = since + 1_000;
    }
  } catch (e) {
    return invalid(`filter: ${errorText(e)}`);
  }

  const data: Record<string, unknown> = { path: spec.path };
  const started = performance.now();
  let exists = true;
  try {
    const st = await stat(folder);
    if (!st.isDirectory()) return fail(`${folder} is not a directory`, data);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return fail(fsError(e, folder), data);
    exists = false;
  }

  const found: Array<FileEntry & { mtimeMs: number }> = [];
  if (exists) {
    try {
      await walk(folder, '', glob ? glob.recursive : (spec.recursive ?? false), filter, now, ctx.signal, found);
      if (glob) {
        const all = found.splice(0);
        found.push(...all.filter((f) => glob.match.test(path.join(folder, f.name))));
      }
    } catch (e) {
      if (e instanceof Aborted || ctx.signal.aborted)
        return fail(`${abortMessage(ctx.signal, ctx)} listing ${folder}`, data);
      return fail(fsError(e, folder), data);
    }
  }
  const elapsed = Math.round(performance.now() - started);

  const strip = ({ mtimeMs: _m, ...f }: FileEntry & { mtimeMs: number }): FileEntry => f;
  let oldest: (typeof found)[number] | undefined;
  let newest: (typeof found)[number] | undefined;
  let smallest: (typeof found)[number] | undefined;
  let largest: (typeof found)[number] | undefined;
  let size = 0;
  for (const f of found) {
    size += f.size;
    if (!oldest || f.mtimeMs < oldest.mtimeMs) oldest = f;
    if (!newest || f.mtimeMs > newest.mtimeMs) newest = f;
    if (!smallest || f.size < smallest.size) smallest = f;
    if (!largest || f.size > largest.size) largest = f;
  }
  let availableSize: number | undefined;
  let filesystemSize: number | undefined;
  if (exists) {
    try {
      const fs = await statfs(folder);
      availableSize = fs.bavail * fs.bsize;
      filesystemSize = fs.blocks * fs.bsize;
    } catch {
      // not every file system reports its size
    }
  }
  data.exists = exists;
  // canary-checker's folder detail, bound as `results` by the runner (plus count, Opsdeck's).
  const results = {
    files: found.slice(0, MAX_LISTED_FILES).map(strip),
    ...(found.length > MAX_LISTED_FILES ? { filesTruncated: true } : {}),
    count: found.length,
    size,
    oldest: oldest ? strip(oldest) : null,
    newest: newest ? strip(newest) : null,
    smallest: smallest ? strip(smallest) : null,
    largest: largest ? strip(largest) : null,
    ...(availableSize !== undefined ? { availableSize, filesystemSize } : {}),
  };

  /** A failure carries canary-checker's errorType (min_count, max_age, ...) for expressions and metrics. */
  const result = (error?: string, errorType?: string): CheckResult =>
    error
      ? { pass: false, error, data: errorType ? { ...data, errorType } : data, results, durationMs: elapsed }
      : {
          pass: true,
          message: `${plural(found.length, 'file')}, ${formatSize(size)}${newest ? `, newest ${formatDuration(now - newest.mtimeMs)} old` : ''}`,
          data,
          results,
          durationMs: elapsed,
        };

  const age = (f: { mtimeMs: number }) => formatDuration(Math.max(0, now - f.mtimeMs));
  const where = exists ? '' : ` (${folder} does not exist)`;
  if (spec.minCount !== undefined && found.length < spec.minCount) {
    return result(`too few files: ${found.length}, expected at least ${spec.minCount}${where}`, 'min_count');
  }
  if (spec.maxCount !== undefined && found.length > spec.maxCount) {
    return result(`too many files: ${found.length}, expected at most ${spec.maxCount}`, 'max_count');
  }
  if (spec.availableSize !== undefined) {
    const want = parseSize(spec.availableSize);
    if (availableSize === undefined) return result(`cannot tell the free space of ${folder}${where}`, 'available_size');
    if (availableSize < want)
      return result(
        `only ${formatSize(availableSize)} free on the file system of ${folder}, under the ${formatSize(want)} minimum`,
        'available_size',
      );
  }
  if (spec.totalSize !== undefined) {
    const want = parseSize(spec.totalSize);
    if (filesystemSize === undefined)
      return result(`cannot tell the size of the file system of ${folder}${where}`, 'total_size');
    if (filesystemSize < want)
      return result(
        `the file system of ${folder} is ${formatSize(filesystemSize)}, under the ${formatSize(want)} minimum`,
        'total_size',
      );
  }
  if (!newest || !oldest || !smallest || !largest) return result();
  if (spec.minAge !== undefined) {
    const min = durationMs(spec.minAge);
    if (now - newest.mtimeMs < min) {
      return result(
        `newest file ${newest.name} is ${age(newest)} old, younger than the ${formatDuration(min)} minimum age`,
        'min_age',
      );
    }
  }
  if (spec.maxAge !== undefined) {
    const max = durationMs(spec.maxAge);
    if (now - oldest.mtimeMs > max) {
      return result(
        `oldest file ${oldest.name} is ${age(oldest)} old, older than the ${formatDuration(max)} maximum age`,
        'max_age',
      );
    }
  }
  if (spec.minSize !== undefined) {
    const min = parseSize(spec.minSize);
    if (smallest.size < min)
      return result(
        `smallest file ${smallest.name} is ${formatSize(smallest.size)}, under the ${formatSize(min)} minimum`,
        'min_size',
      );
  }
  if (spec.maxSize !== undefined) {
    const max = parseSize(spec.maxSize);
    if (largest.size > max)
      return result(
        `largest file ${largest.name} is ${formatSize(largest.size)}, over the ${formatSize(max)} maximum`,
        'max_size',
      );
  }
  return result();
}

export const folderChecker: Checker<FolderSpec> = {
  type: 'folder',
  schema: folderSchema,
  endpoint: (spec) => spec.path,
  run,
};

export default folderChecker;
