// The file scraper: reads the JSON/YAML files that `paths` (globs, relative to the server's working
// directory or absolute) match; every document in a file (multi-document YAML included) is one item
// unless `items` splits it further.
import fs from 'node:fs/promises';
import path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { z } from 'zod';
import {
  baseScraperFields,
  ScrapeError,
  type BaseScraperSpec,
  type RawDocument,
  type ScrapeContext,
  type Scraper,
} from '../scraper.js';
import { formatOfPath, parseText } from './parse.js';

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const MAX_FILES = 50_000;

export const fileSchema = z.looseObject({
  ...baseScraperFields,
  paths: z
    .array(z.string().min(1), { error: 'paths is required: a list of files or globs, e.g. [config/*.yaml]' })
    .min(1, 'paths needs at least one file or glob'),
  url: z.string().optional(),
});

export type FileSpec = z.infer<typeof fileSchema> & BaseScraperSpec;

/** Splits `/a/b/**\/*.yaml` into the fixed folder to search from and the glob below it. */
function splitGlob(pattern: string): { base: string; rest: string } {
  const parts = pattern.split('/');
  const i = parts.findIndex((p) => isDynamicPattern(p));
  return { base: parts.slice(0, i).join('/') || (pattern.startsWith('/') ? '/' : '.'), rest: parts.slice(i).join('/') };
}

export async function matchPaths(patterns: string[], cwd = process.cwd()): Promise<string[]> {
  const found = new Set<string>();
  for (const pattern of patterns) {
    if (!isDynamicPattern(pattern)) {
      found.add(path.resolve(cwd, pattern));
      continue;
    }
    const { base, rest } = splitGlob(pattern);
    const files = await glob([rest], { cwd: path.resolve(cwd, base), absolute: true, onlyFiles: true, dot: false });
    for (const f of files) found.add(path.normalize(f));
  }
  return [...found].sort();
}

const READ_CONCURRENCY = 16;

async function readDocuments(file: string, format: string | undefined): Promise<RawDocument[]> {
  const stat = await fs.stat(file);
  if (!stat.isFile()) return [];
  if (stat.size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
  const text = await fs.readFile(file, 'utf8');
  const parsed = parseText(text, format ?? formatOfPath(file));
  const many = parsed.docs.length > 1;
  return parsed.docs.map((data, i) => ({
    data,
    source: many ? `${file}#${i}` : file,
    format: parsed.format,
    defaults: { id: many ? `${file}#${i}` : file, name: path.basename(file) },
  }));
}

async function scrape(spec: FileSpec, ctx: ScrapeContext): Promise<RawDocument[]> {
  if (spec.url) throw new ScrapeError('url (reading files from a git or HTTP source) is not supported: use paths');
  const files = await matchPaths(spec.paths);
  if (files.length > MAX_FILES) throw new ScrapeError(`paths match ${files.length} files; the limit is ${MAX_FILES}`);
  const perFile: RawDocument[][] = new Array(files.length);
  const errors: string[] = [];
  // A few reads in flight at once: most of a big scrape is waiting on the file system.
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const n = next++;
      const file = files[n]!;
      try {
        perFile[n] = await readDocuments(file, spec.format);
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        // A fixed path that does not exist is an error; a glob that matches nothing is simply empty.
        errors.push(err.code === 'ENOENT' ? `${file}: no such file` : `${file}: ${err.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, files.length) }, worker));
  const docs = perFile.flatMap((d) => d ?? []);
  // Nothing readable at all fails the scraper; otherwise the bad files are reported and the rest kept.
  if (errors.length && !docs.length) throw new ScrapeError(errors.slice(0, 20).join('; '));
  for (const e of errors.slice(0, 50)) ctx.warn(e);
  return docs;
}

export const fileScraper: Scraper<FileSpec> = { type: 'file', schema: fileSchema as z.ZodType<FileSpec>, scrape };
