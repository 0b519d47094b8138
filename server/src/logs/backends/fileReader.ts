// Reading log files newest line first without loading them: the files of a file backend grouped
// into chains (app.log with its rotated app.log.1, app.log.2 … by modification time), and a
// reader that walks a chain backwards in bounded chunks, filtering by time and text, and can say
// where it is (file identity + byte offset) so the next page resumes there, after rotation too.
import fs from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { lineTime } from './query.js';

const CHUNK = 256 * 1024;
/** A line longer than this is cut into pieces (memory stays bounded whatever the file holds). */
const MAX_LINE = 1024 * 1024;
/** What a line's message keeps. */
const MAX_MESSAGE = 64 * 1024;
const MAX_CHAINS = 200;
const MAX_FILES_PER_CHAIN = 50;

export interface ChainFile {
  path: string;
  /** `dev:ino`: the file's identity, kept across renames (rotation). */
  identity: string;
  size: number;
  mtimeMs: number;
}

export interface Chain {
  /** The current file's path (rotated files share it without their numeric suffix). */
  key: string;
  /** Newest first. */
  files: ChainFile[];
  labels: Record<string, string>;
}

/** Where a chain's reading stopped: lines ending at or before `offset` of that file are still to read. */
export interface ChainPosition {
  identity: string;
  offset: number;
}

export interface ReadLine {
  id: string;
  time: number;
  message: string;
  file: string;
  /** The file's identity (`dev:ino`). */
  identity: string;
  /** Byte offset after the line (its newline included): the resume position before it. */
  end: number;
}

/** A shared allowance of bytes and time per request; a reader stops when it is spent. */
export interface Budget {
  bytes: number;
  deadline: number;
  signal: AbortSignal;
}

export interface LineFilter {
  match?: RegExp;
  /** Lower-case ASCII literal: chunks without it are skipped without splitting lines. */
  literal?: string;
  startMs: number;
  endMs: number;
}

const rotatedBase = (file: string) => file.replace(/\.\d+$/, '');

/** The chains of the globs of the given entries (each with its labels), newest file first. */
export async function findChains(entries: { paths: string[]; labels: Record<string, string> }[]): Promise<Chain[]> {
  const chains = new Map<string, { labels: Record<string, string>; files: Set<string> }>();
  for (const entry of entries) {
    const found = await glob(entry.paths, { absolute: true, onlyFiles: true, expandDirectories: false, dot: true });
    for (const file of found.sort()) {
      if (file.endsWith('.gz')) continue;
      const key = rotatedBase(file);
      const chain = chains.get(key) ?? { labels: entry.labels, files: new Set<string>() };
      chain.files.add(file);
      chains.set(key, chain);
      if (chains.size >= MAX_CHAINS) break;
    }
  }
  const out: Chain[] = [];
  for (const [key, chain] of chains) {
    // Rotated siblings the glob did not name: app.log.1, app.log.2, ...
    const dir = path.dirname(key);
    const base = path.basename(key);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names)
      if (name === base || /^\.\d+$/.test(name.slice(base.length))) chain.files.add(path.join(dir, name));
    const files: (ChainFile & { n: number })[] = [];
    for (const file of chain.files) {
      if (!file.startsWith(key)) continue;
      const st = await fs.stat(file).catch(() => undefined);
      if (!st?.isFile()) continue;
      const n = file === key ? 0 : Number(file.slice(key.length + 1));
      files.push({ path: file, identity: `${st.dev}:${st.ino}`, size: st.size, mtimeMs: st.mtimeMs, n });
    }
    files.sort((a, b) => b.mtimeMs - a.mtimeMs || a.n - b.n);
    if (files.length)
      out.push({ key, labels: chain.labels, files: files.slice(0, MAX_FILES_PER_CHAIN).map(({ n: _n, ...f }) => f) });
  }
  return out;
}

export type Peeked = ReadLine | 'done' | 'budget';

/** Walks one chain backwards: peek() the newest line not yet taken that passes the filter. */
export class ChainReader {
  private fileIndex = 0;
  private pos = 0;
  private carry: Buffer = Buffer.alloc(0);
  private buffer: ReadLine[] = [];
  private handle: fs.FileHandle | undefined;
  private finished = false;

  constructor(
    readonly chain: Chain,
    private readonly filter: LineFilter,
    private readonly budget: Budget,
    from?: ChainPosition | null,
  ) {
    if (from === null) {
      this.finished = true;
    } else if (from) {
      const i = chain.files.findIndex((f) => f.identity === from.identity);
      // The file it stopped in is gone (deleted): nothing older is left to read in order.
      if (i < 0) this.finished = true;
      else this.startFile(i, Math.min(from.offset, chain.files[i]!.size));
    } else {
      this.startFile(0, chain.files[0]!.size);
    }
  }

  private startFile(index: number, offset: number) {
    this.fileIndex = index;
    this.pos = offset;
    this.carry = Buffer.alloc(0);
  }

  /** Where to resume: null when the chain is read to its end. */
  position(): ChainPosition | null {
    const next = this.buffer[0];
    if (next) return { identity: next.identity, offset: next.end };
    if (this.finished) return null;
    return { identity: this.file.identity, offset: this.pos + this.carry.length };
  }

  private get file(): ChainFile {
    return this.chain.files[this.fileIndex]!;
  }

  async peek(): Promise<Peeked> {
    while (!this.buffer.length) {
      if (this.finished) return 'done';
      if (this.budget.bytes <= 0 || Date.now() > this.budget.deadline || this.budget.signal.aborted) return 'budget';
      await this.readChunk();
    }
    return this.buffer[0]!;
  }

  take(): ReadLine | undefined {
    return this.buffer.shift();
  }

  async close() {
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
  }

  private async nextFile() {
    await this.close();
    const next = this.fileIndex + 1;
    // Older files hold only lines older than their mtime: past the start of the range, stop.
    if (next >= this.chain.files.length || this.chain.files[next]!.mtimeMs < this.filter.startMs) {
      this.finished = true;
      return;
    }
    this.startFile(next, this.chain.files[next]!.size);
  }

  private async readChunk() {
    const file = this.file;
    if (this.pos === 0 && !this.carry.length) return this.nextFile();
    if (file.mtimeMs < this.filter.startMs) {
      this.finished = true;
      return this.close();
    }
    this.handle ??= await fs.open(file.path, 'r');
    const length = Math.min(CHUNK, this.pos);
    const start = this.pos - length;
    const chunk = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await this.handle.read(chunk, got, length - got, start + got);
      if (!bytesRead) break;
      got += bytesRead;
    }
    this.budget.bytes -= length;
    const region = this.carry.length ? Buffer.concat([chunk.subarray(0, got), this.carry]) : chunk.subarray(0, got);
    let first = 0;
    if (start > 0) {
      const nl = region.indexOf(10);
      if (nl < 0 || nl >= region.length - 1) {
        // No complete line yet: keep reading back, unless the line is already too long.
        if (region.length < MAX_LINE) {
          this.pos = start;
          this.carry = Buffer.from(region);
          return;
        }
      } else {
        first = nl + 1;
      }
    }
    this.pos = start;
    this.carry = Buffer.from(region.subarray(0, first));
    this.collect(region, first, start, file);
    if (start === 0 && !this.carry.length && !this.finished) await this.nextFile();
  }

  /** The lines of region[first..] (region begins at byte `base` of the file), newest first, filtered. */
  private collect(region: Buffer, first: number, base: number, file: ChainFile) {
    const { match, literal, startMs, endMs } = this.filter;
    const timeOf = (s: number, e: number) =>
      lineTime(region.toString('latin1', s, Math.min(e, s + 40)), file.mtimeMs) ?? file.mtimeMs;
    if (literal && !region.toString('latin1', first).toLowerCase().includes(literal)) {
      // No line here can match; only the range's start may end the chain.
      const nl = region.indexOf(10, first);
      if (timeOf(first, nl < 0 ? region.length : nl) < startMs) this.finished = true;
      return;
    }
    const lines: ReadLine[] = [];
    let e = region.length;
    while (e > first) {
      // (lastIndexOf counts a negative offset from the end.)
      const nl = e >= 2 ? region.lastIndexOf(10, e - 2) : -1;
      const s = nl < first ? first : nl + 1;
      let textEnd = region[e - 1] === 10 ? e - 1 : e;
      if (region[textEnd - 1] === 13) textEnd--;
      if (textEnd > s) {
        const time = timeOf(s, textEnd);
        if (time < startMs) {
          this.finished = true;
          break;
        }
        if (time <= endMs) {
          const message = region.toString('utf8', s, Math.min(textEnd, s + MAX_MESSAGE));
          if (!match || match.test(message))
            lines.push({
              id: `${file.identity}:${base + s}`,
              time,
              message,
              file: file.path,
              identity: file.identity,
              end: base + e,
            });
        }
      }
      e = s;
    }
    this.buffer.push(...lines);
    if (this.finished && !this.buffer.length) void this.close();
  }
}
