// The playbook-trigger consumer of the event queue (registered on ctx.events): for check.*, component.*
// and config.* events it finds the live playbooks whose `on` entries listen for the event, checks their
// labels, filter and resource selectors against the event's resource, and queues one run per playbook
// with the trigger recorded (none when the playbook's `filters` are false for the resource: counted in
// stats.filteredOut) — only rows, in the event's transaction, so a claimed event starts its runs
// exactly once across replicas. A storm of events for one (playbook, resource) is debounced
// (triggeredRun.ts): one run per window, none while one is still waiting or under way.
import type { Queryable } from '../db/database.js';
import type { EventConsumer, HandleMode, QueuedEvent } from '../jobs/eventQueue.js';
import { parseStoredPlaybook } from './playbook.js';
import { acceptedKinds, playbookMatches } from './selectors.js';
import { loadResource } from './store.js';
import {
  queueTriggeredRun,
  recordDebouncedRun,
  takeDebounceSlot,
  triggeredFilters,
  triggeredParams,
  type TriggeredPlaybook,
} from './triggeredRun.js';
import { eventTriggerKey, listeningTriggers, triggerMatches } from './triggers.js';
import { hasEventTriggers } from './triggerSpec.js';
import { logger } from '../log.js';

const log = logger('playbooks');

export interface TriggerConsumerOptions {
  /** Events of one (playbook, resource) inside this window start one run (default 1 minute). */
  debounceMs?: number;
  /** Logs what was skipped and why (default: the server log, warn, for errors only). */
  log?: (message: string) => void;
}

interface Cache {
  signature: string;
  playbooks: TriggeredPlaybook[];
}

export class PlaybookTriggerConsumer implements EventConsumer {
  readonly name = 'playbook triggers';
  private readonly debounceMs: number;
  private readonly log: (message: string) => void;
  private cache: Cache | undefined;
  /** The transaction of the batch prepare() read the playbooks in. */
  private prepared: Queryable | undefined;
  /** Counters for tests and logs. */
  readonly stats = { started: 0, debounced: 0, filtered: 0, filteredOut: 0 };

  constructor(options: TriggerConsumerOptions = {}) {
    this.debounceMs = options.debounceMs ?? 60_000;
    this.log = options.log ?? ((m) => log.warn(`playbook triggers: ${m}`));
  }

  accepts(eventName: string): boolean {
    return eventTriggerKey(eventName) !== undefined;
  }

  /** Live playbooks with event triggers; re-read only when the playbooks table changed. */
  private async playbooks(tx: Queryable): Promise<TriggeredPlaybook[]> {
    const { rows: sig } = await tx.query<{ signature: string }>(
      `SELECT concat(count(*), '/', max(updated_at), '/', max(deleted_at), '/', max(created_at)) AS signature
       FROM playbooks`,
    );
    const signature = sig[0]?.signature ?? '';
    if (this.cache?.signature === signature) return this.cache.playbooks;
    const { rows } = await tx.query<{ id: string; name: string; spec: Record<string, unknown> }>(
      `SELECT id, name, spec FROM playbooks WHERE deleted_at IS NULL AND spec->'spec' ? 'on' ORDER BY name`,
    );
    const playbooks: TriggeredPlaybook[] = [];
    for (const row of rows) {
      try {
        const def = parseStoredPlaybook(row.spec);
        if (hasEventTriggers(def.spec.on)) playbooks.push({ id: row.id, name: row.name, resource: row.spec, def });
      } catch (e) {
        this.log(`playbook ${row.name}: the stored spec no longer parses: ${(e as Error).message}`);
      }
    }
    this.cache = { signature, playbooks };
    return playbooks;
  }

  /** An unguarded event-router batch: the playbooks are checked for changes once for all its events. */
  async prepare(tx: Queryable): Promise<void> {
    this.prepared = undefined;
    await this.playbooks(tx);
    this.prepared = tx;
  }

  rolledBack(): void {
    this.prepared = undefined;
  }

  async handle(tx: Queryable, event: QueuedEvent, mode?: HandleMode): Promise<void> {
    const key = eventTriggerKey(event.name);
    const id = event.properties.id;
    if (!key || typeof id !== 'string') return;
    const all =
      mode?.guarded === false && this.prepared === tx && this.cache ? this.cache.playbooks : await this.playbooks(tx);
    const listening = all.filter((p) => listeningTriggers(p.def.spec.on, key).length > 0);
    if (!listening.length) return;
    const target = await loadResource(tx, key.resource, id, true);
    if (!target) return;
    const env: Record<string, unknown> = {
      check: null,
      canary: null,
      component: null,
      config: null,
      [key.resource]: target.row,
      event: { name: event.name, properties: event.properties },
    };
    if (key.resource === 'check') {
      const { rows } = await tx.query('SELECT id, name, namespace, labels FROM canaries WHERE id = $1', [
        target.row.canary_id,
      ]);
      env.canary = rows[0] ?? null;
    }
    for (const playbook of listening) {
      const matched = listeningTriggers(playbook.def.spec.on, key).some((t) => {
        const outcome = triggerMatches(t, target.match.labels, env);
        if (!outcome.matched && outcome.error) this.log(`${playbook.name}: filter "${t.filter}": ${outcome.error}`);
        return outcome.matched;
      });
      const kinds = acceptedKinds(playbook.def.spec);
      const fits =
        kinds.length === 0 || (kinds.includes(key.resource) && playbookMatches(playbook.def.spec, target.match));
      if (!matched || !fits) {
        this.stats.filtered++;
        continue;
      }
      const runTarget = { kind: key.resource, id: target.match.id, row: target.row };
      // The playbook's own `filters` (spec.filters): false for this resource, no run (nor debounce slot).
      const verdict = triggeredFilters(playbook, runTarget);
      if (!verdict.ok) {
        this.stats.filteredOut++;
        if (verdict.failed) this.log(`${playbook.name}: ${verdict.reason}`);
        continue;
      }
      let params: Record<string, string>;
      try {
        params = triggeredParams(playbook, runTarget);
      } catch (e) {
        // A playbook that cannot start for this resource (a required parameter without a default,
        // a default that does not render) must not hold up the other consumers' work on the event.
        this.log(`${playbook.name}: no run for ${key.resource} ${target.match.name}: ${(e as Error).message}`);
        continue;
      }
      if (!(await takeDebounceSlot(tx, playbook.id, target.match.id, this.debounceMs))) {
        this.stats.debounced++;
        continue;
      }
      const run = await queueTriggeredRun(tx, playbook, runTarget, { type: 'event', event: event.name }, params);
      await recordDebouncedRun(tx, playbook.id, target.match.id, run.id);
      this.stats.started++;
    }
  }
}
