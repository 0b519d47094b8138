// The file log backend: files on the server's disk named by globs. Each page merges the chains of
// files (a file with its rotated predecessors) newest line first, reading backwards in bounded
// chunks; a scan budget per request keeps latency and memory flat whatever the files' size (a
// page may then hold fewer lines than asked, with a cursor to go on).
import { fileEntrySchema, type FileEntry, type LogLine } from '@opsdeck/common';
import path from 'node:path';
import { ChainReader, findChains, type Budget, type ChainPosition } from './fileReader.js';
import { decodeCursor, encodeCursor, labelsAgree } from './query.js';
import type { EntryProblem, LogBackend } from './types.js';

/** Bytes and time one request may spend scanning (then it answers what it found, with a cursor). */
export const FILE_SCAN_BYTES = 256 * 1024 * 1024;
export const FILE_SCAN_MS = 800;

interface FileCursor {
  v: 1;
  chains: Record<string, ChainPosition | null>;
}

const isChainPosition = (p: unknown): p is ChainPosition | null =>
  p === null ||
  (typeof p === 'object' &&
    typeof (p as ChainPosition).identity === 'string' &&
    Number.isFinite((p as ChainPosition).offset));

const isFileCursor = (v: unknown): v is FileCursor => {
  const chains = typeof v === 'object' && v !== null && (v as FileCursor).v === 1 ? (v as FileCursor).chains : null;
  return typeof chains === 'object' && chains !== null && Object.values(chains).every(isChainPosition);
};

/** What is wrong with a glob as a path to read: relative, unbalanced braces or brackets, empty parts. */
export function globProblem(glob: string): string | undefined {
  const g = glob.trim();
  if (!path.isAbsolute(g)) return `"${glob}" must be an absolute path (it is read on the server)`;
  if ((g.match(/\{/g)?.length ?? 0) !== (g.match(/\}/g)?.length ?? 0)) return `"${glob}" has unbalanced { }`;
  if ((g.match(/\[/g)?.length ?? 0) !== (g.match(/\]/g)?.length ?? 0)) return `"${glob}" has unbalanced [ ]`;
  if (/\[\]|\{\}/.test(g)) return `"${glob}" is not a valid glob (empty { } or [ ])`;
  if (g.includes('\0')) return `"${glob}" contains a NUL character`;
  return undefined;
}

/** A lower-case ASCII literal of a plain-text search, used to skip chunks without it. */
function literalOf(text: string, match: RegExp | undefined): string | undefined {
  const t = text.trim();
  if (!match || t.startsWith('/') || !/^[\x20-\x7e]+$/.test(t)) return undefined;
  return t.toLowerCase();
}

export const fileBackend: LogBackend<FileEntry> = {
  type: 'file',
  schema: fileEntrySchema,

  async problems(entry) {
    const out: EntryProblem[] = [];
    entry.paths.forEach((p, i) => {
      const wrong = globProblem(p);
      if (wrong) out.push({ path: ['paths', i], message: wrong });
    });
    return out;
  },

  async search(entries, query, ctx) {
    const picked = entries.filter((e) => labelsAgree(e.labels, query.selector));
    const chains = await findChains(picked.map((e) => ({ paths: e.paths, labels: e.labels ?? {} })));
    const cursor = decodeCursor(query.cursor, isFileCursor);
    const budget: Budget = {
      bytes: FILE_SCAN_BYTES,
      deadline: Date.now() + Math.min(FILE_SCAN_MS, ctx.timeoutMs * 0.6),
      signal: ctx.signal,
    };
    const filter = {
      match: query.match,
      literal: literalOf(query.text, query.match),
      startMs: query.start.getTime(),
      endMs: query.end.getTime(),
    };
    // A chain that appeared after the first page holds only newer lines: it is not part of this walk.
    const readers = chains
      .filter((c) => !cursor || c.key in cursor.chains)
      .map((c) => new ChainReader(c, filter, budget, cursor ? cursor.chains[c.key] : undefined));
    const results: LogLine[] = [];
    try {
      let spent = false;
      while (results.length < query.limit) {
        const heads = await Promise.all(readers.map((r) => r.peek()));
        if (heads.includes('budget')) {
          spent = true;
          break;
        }
        let best = -1;
        heads.forEach((h, i) => {
          const b = heads[best];
          if (typeof h === 'object' && (typeof b !== 'object' || h.time > b.time)) best = i;
        });
        if (best < 0) break;
        const reader = readers[best]!;
        const line = reader.take()!;
        results.push({
          id: line.id,
          timestamp: new Date(line.time).toISOString(),
          message: line.message,
          labels: { ...reader.chain.labels, file: line.file },
        });
      }
      if (!spent && results.length >= query.limit) await Promise.all(readers.map((r) => r.peek().catch(() => 'done')));
      const positions = Object.fromEntries(readers.map((r) => [r.chain.key, r.position()]));
      const more = Object.values(positions).some((p) => p !== null);
      return { results, nextCursor: more ? encodeCursor({ v: 1, chains: positions } satisfies FileCursor) : null };
    } finally {
      await Promise.all(readers.map((r) => r.close()));
    }
  },
};
