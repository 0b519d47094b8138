// Canaries for tests that drive health engines by hand: applied through the engine's own parse and
// apply, run once an hour, and made due at a chosen moment, so a test's tick() decides when they run.
import type { Database } from '../../src/db/database.js';
import { parseCanary } from '../../src/health/canary.js';
import { checkers } from '../../src/health/checkers/index.js';
import { applyCanary } from '../../src/health/store.js';
import { parseDocuments } from '../../src/resources/yaml.js';

/**
 * Applies canary `name` (namespace default, `@every 1h`) whose spec holds `checksYaml` (e.g.
 * `  exec:\n    - {name: ok, script: "true"}`), due `dueAgoMs` ago.
 */
export async function applyDueCanary(
  db: Database,
  name: string,
  checksYaml: string,
  dueAgoMs = 1_000,
): Promise<{ id: string; checkIds: string[] }> {
  const def = parseCanary(
    parseDocuments(`apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: ${name}, namespace: default}
spec:
  schedule: "@every 1h"
${checksYaml}
`)[0]!,
    checkers,
  );
  const applied = await applyCanary(db, def, { source: 'UI' });
  await db.query(`UPDATE canaries SET next_runtime = now() - make_interval(secs => $2::float8 / 1000) WHERE id = $1`, [
    applied.id,
    dueAgoMs,
  ]);
  return { id: applied.id, checkIds: applied.checks.map((c) => c.id) };
}

/** Which engine instance holds a canary's lease (null: none). */
export async function leaseOwnerOf(db: Database, canaryId: string): Promise<string | null> {
  const { rows } = await db.query<{ lease_owner: string | null }>('SELECT lease_owner FROM canaries WHERE id = $1', [
    canaryId,
  ]);
  return rows[0]!.lease_owner;
}
