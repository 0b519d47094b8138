// Artifacts: files an exec action leaves behind (`artifacts: [{path}]`, globs relative to the
// script's directory or absolute), read once the script ended and stored in the `artifacts` table
// against the action row, so any replica can serve them for download. A file over the size cap is
// not stored; the action's result says which were skipped and why.
import crypto from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import type { Queryable } from '../db/database.js';

export const MAX_ARTIFACT_BYTES = 10 * 1024 * 1024;
/** Files per action: a glob that matches a whole tree stops here. */
export const MAX_ARTIFACT_FILES = 50;

export const artifactsSchema = z.array(
  z.strictObject(
    { path: z.string({ error: 'path is required (a file or a glob)' }).min(1, 'path is required (a file or a glob)') },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: an artifact has only path` : undefined,
    },
  ),
);
export type ArtifactSpec = z.infer<typeof artifactsSchema>[number];

export interface CollectedFile {
  path: string;
  filename: string;
  content: Buffer;
}

export interface Collected {
  files: CollectedFile[];
  skipped: { path: string; reason: string }[];
}

export interface SavedArtifact {
  id: string;
  path: string;
  filename: string;
  size: number;
  content_type: string;
  checksum: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.txt': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.xml': 'application/xml',
  '.html': 'text/html; charset=utf-8',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.gz': 'application/gzip',
  '.tgz': 'application/gzip',
  '.zip': 'application/zip',
  '.tar': 'application/x-tar',
};

export function contentTypeOf(filename: string): string {
  return CONTENT_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

/** The files the specs match, read into memory (size-capped), paths shown relative to `cwd` when inside it. */
export async function collectArtifacts(cwd: string, specs: readonly ArtifactSpec[]): Promise<Collected> {
  const out: Collected = { files: [], skipped: [] };
  const seen = new Set<string>();
  for (const spec of specs) {
    const matches = await glob(spec.path, {
      cwd,
      absolute: true,
      onlyFiles: true,
      dot: true,
      expandDirectories: false,
    });
    if (!matches.length) out.skipped.push({ path: spec.path, reason: 'no file matched' });
    for (const file of matches.sort()) {
      if (seen.has(file)) continue;
      seen.add(file);
      const shown = file.startsWith(`${cwd}${path.sep}`) ? path.relative(cwd, file) : file;
      if (out.files.length >= MAX_ARTIFACT_FILES) {
        out.skipped.push({ path: shown, reason: `more than ${MAX_ARTIFACT_FILES} files` });
        continue;
      }
      const info = await stat(file).catch(() => undefined);
      if (!info) continue;
      if (info.size > MAX_ARTIFACT_BYTES) {
        out.skipped.push({
          path: shown,
          reason: `larger than ${MAX_ARTIFACT_BYTES / 1024 / 1024} MB (${info.size} bytes)`,
        });
        continue;
      }
      out.files.push({ path: shown, filename: path.basename(file), content: await readFile(file) });
    }
  }
  return out;
}

export async function saveArtifacts(
  db: Queryable,
  actionId: string,
  files: readonly CollectedFile[],
): Promise<SavedArtifact[]> {
  const saved: SavedArtifact[] = [];
  for (const f of files) {
    const checksum = crypto.createHash('sha256').update(f.content).digest('hex');
    const contentType = contentTypeOf(f.filename);
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO artifacts (playbook_run_action_id, path, filename, size, content_type, content, checksum)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [actionId, f.path, f.filename, f.content.length, contentType, f.content, checksum],
    );
    saved.push({
      id: rows[0]!.id,
      path: f.path,
      filename: f.filename,
      size: f.content.length,
      content_type: contentType,
      checksum,
    });
  }
  return saved;
}

/** The artifacts of an action, without their content. */
export async function listArtifacts(db: Queryable, actionId: string): Promise<SavedArtifact[]> {
  const { rows } = await db.query<SavedArtifact & { size: string | number; created_at: Date }>(
    `SELECT id, path, filename, size, content_type, checksum, created_at FROM artifacts
     WHERE playbook_run_action_id = $1 ORDER BY created_at, path`,
    [actionId],
  );
  return rows.map((r) => ({ ...r, size: Number(r.size) }));
}

export async function loadArtifact(
  db: Queryable,
  id: string,
): Promise<{ filename: string; content_type: string; content: Buffer } | undefined> {
  const { rows } = await db.query<{ filename: string; content_type: string; content: Buffer | Uint8Array }>(
    'SELECT filename, content_type, content FROM artifacts WHERE id = $1',
    [id],
  );
  const row = rows[0];
  return row && { ...row, content: Buffer.from(row.content) };
}
