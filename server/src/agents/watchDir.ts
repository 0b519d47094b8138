// `opsdeck agent --config-dir DIR`: every *.yaml / *.yml file of DIR is applied to the agent's own
// API, as `opsdeck apply -f` would (cliApply.ts), at start and whenever a file changes or is added;
// when a file is removed (or no longer holds a resource it held), what it had applied is deleted
// (soft delete, through the kind's DELETE endpoint). A file with an error is logged with its file,
// line and column and does not stop the others. What each file applied is kept in the data
// directory (config-dir-state.json), so that a file removed while the agent was stopped is
// cleaned up at the next start.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createToken } from '../auth/tokens.js';
import { applyText, type AppliedEntry, type ApplyLog } from '../cliApply.js';
import type { Database } from '../db/database.js';
import { logger } from '../log.js';

const log = logger('agent');

export interface ConfigDirOptions {
  /** The directory watched. */
  dir: string;
  /** The agent's own API (its URL) and a token of a user allowed to write every kind. */
  server: string;
  token: string;
  /** Where what each file applied is remembered. */
  statePath: string;
  /** How often the directory is also read without a change event (events can be missed). */
  rescanMs?: number;
  log?: ApplyLog;
}

interface FileState {
  hash: string;
  resources: AppliedEntry[];
}

const TOKEN_NAME = 'opsdeck agent --config-dir';

/**
 * A token of the agent's first administrator for the watcher's calls to its own API; the one the
 * previous start made is removed (tokens are stored hashed: a new one each start).
 */
export async function configDirToken(db: Database): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT p.id FROM people p JOIN person_roles r ON r.person_id = p.id
     WHERE r.role = 'admin' AND p.deleted_at IS NULL AND p.state = 'active' ORDER BY p.created_at LIMIT 1`,
  );
  if (!rows[0]) throw new Error('--config-dir: the agent has no active administrator to apply resources as');
  await db.query('DELETE FROM access_tokens WHERE name = $1 AND person_id = $2', [TOKEN_NAME, rows[0].id]);
  return (await createToken(db, { name: TOKEN_NAME, personId: rows[0].id, createdBy: null })).token;
}

const YAML_FILE = /\.ya?ml$/i;
/** Events come in bursts while an editor writes a file: one pass after they settle. */
const SETTLE_MS = 200;

const resourceKey = (r: AppliedEntry) => `${r.endpoint} ${r.id ?? `${r.namespace}/${r.name}`}`;

export class ConfigDirWatcher {
  private files = new Map<string, FileState>();
  private watcher: fs.FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private rescan: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private again = false;
  private busy = false;
  private stopped = false;
  private readonly log: ApplyLog;

  constructor(private readonly options: ConfigDirOptions) {
    this.log = options.log ?? { info: (l) => log.info(l), error: (l) => log.error(l) };
  }

  /** Applies the directory once (resolves when done), then watches it. */
  async start(): Promise<void> {
    if (!fs.statSync(this.options.dir, { throwIfNoEntry: false })?.isDirectory())
      throw new Error(`--config-dir ${this.options.dir} is not a directory`);
    this.files = this.readState();
    // At start every file is applied again, whatever the state says: the database may have moved on.
    for (const state of this.files.values()) state.hash = '';
    await this.sync();
    this.watcher = fs.watch(this.options.dir, () => this.schedule());
    this.watcher.on('error', (e) => this.log.error(`config dir ${this.options.dir}: ${e.message}`));
    this.rescan = setInterval(() => this.schedule(), this.options.rescanMs ?? 10_000);
    this.rescan.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watcher?.close();
    clearTimeout(this.timer);
    clearInterval(this.rescan);
    await this.running;
  }

  /** One pass now (after the passes already queued). */
  sync(): Promise<void> {
    if (this.busy) {
      this.again = true;
      return this.running;
    }
    this.busy = true;
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again && !this.stopped);
      } catch (e) {
        this.log.error(`config dir ${this.options.dir}: ${(e as Error).message}`);
      } finally {
        this.busy = false;
      }
    })();
    return this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.sync(), SETTLE_MS);
  }

  private async pass(): Promise<void> {
    const names = fs
      .readdirSync(this.options.dir, { withFileTypes: true })
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && YAML_FILE.test(e.name) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
    let changed = false;
    for (const name of names) {
      const file = path.join(this.options.dir, name);
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        continue; // removed (or replaced) between the listing and the read: the next pass sees it
      }
      const hash = crypto.createHash('sha256').update(text).digest('hex');
      const before = this.files.get(name);
      if (before?.hash === hash) continue;
      const report = await applyText(text, file, this.options.server, this.options.token, this.log);
      if (report.unreachable) throw new Error(`the agent's API at ${this.options.server} did not answer`);
      const old = before?.resources ?? [];
      let resources = report.applied;
      if (report.failed) {
        // Part of the file was refused: keep what it applied before too (nothing is deleted for it).
        const seen = new Set(resources.map(resourceKey));
        resources = [...resources, ...old.filter((r) => !seen.has(resourceKey(r)))];
      } else {
        const kept = new Set(resources.map(resourceKey));
        await this.remove(
          file,
          old.filter((r) => !kept.has(resourceKey(r))),
        );
      }
      this.files.set(name, { hash, resources });
      changed = true;
    }
    for (const [name, state] of this.files) {
      if (names.includes(name)) continue;
      await this.remove(path.join(this.options.dir, name), state.resources);
      this.files.delete(name);
      changed = true;
    }
    if (changed) this.writeState();
  }

  /** Deletes resources a file no longer holds. */
  private async remove(file: string, resources: AppliedEntry[]): Promise<void> {
    for (const r of resources) {
      const what = `${r.kind.toLowerCase()}/${r.namespace}/${r.name}`;
      if (!r.id) {
        this.log.error(`${file}: ${what} cannot be deleted (the server did not say its id)`);
        continue;
      }
      const res = await fetch(new URL(`${r.endpoint}/${encodeURIComponent(r.id)}`, this.options.server), {
        method: 'DELETE',
        headers: { authorization: `Bearer ${this.options.token}` },
      }).catch((e: Error) => e);
      if (res instanceof Error) throw new Error(`the agent's API at ${this.options.server}: ${res.message}`);
      const body = await res.text();
      if (res.ok || res.status === 404) this.log.info(`${what} deleted (${path.basename(file)} no longer has it)`);
      else this.log.error(`${file}: deleting ${what}: HTTP ${res.status} ${body.slice(0, 200)}`);
    }
  }

  private readState(): Map<string, FileState> {
    try {
      const raw = JSON.parse(fs.readFileSync(this.options.statePath, 'utf8')) as {
        dir?: string;
        files?: Record<string, FileState>;
      };
      // The state of another directory says nothing about this one.
      if (raw.dir !== path.resolve(this.options.dir)) return new Map();
      return new Map(Object.entries(raw.files ?? {}));
    } catch {
      return new Map();
    }
  }

  private writeState(): void {
    const tmp = `${this.options.statePath}.tmp`;
    const files = Object.fromEntries(this.files);
    fs.writeFileSync(tmp, JSON.stringify({ dir: path.resolve(this.options.dir), files }, null, 2));
    fs.renameSync(tmp, this.options.statePath);
  }
}
