// What `DELETE /api/db/<table>` does on each relation with a write guard (rest/deleteRules.ts): the
// resource's own delete endpoint, decided table by table (docs/api.md "Resources through /api/db").
import type { Queryable } from '../db/database.js';
import { deleteLoggingBackend } from '../logs/resource.js';
import { deleteMaintenanceWindow } from '../maintenance/resource.js';
import { deleteNotification } from '../notifications/resource.js';
import { deleteSilence } from '../notifications/silenceResource.js';
import type { DeleteRule, DeleteRules } from '../rest/deleteRules.js';
import { deleteStatusPage } from '../statuspages/resource.js';

export function dbDeleteRules(db: Queryable): DeleteRules {
  return new Map<string, DeleteRule>([
    // DELETE /api/canary|topology|catalog/{id}: the guard's soft delete runs deleteCanary (its checks),
    // deleteTopology (its components, their links, inline canaries), deleteScrapeConfig.
    ['canaries', { kind: 'soft', noun: 'canary' }],
    ['topologies', { kind: 'soft', noun: 'topology' }],
    ['config_scrapers', { kind: 'soft', noun: 'scrape config' }],
    // No delete endpoint: the console soft-deletes these rows (the engines read live rows only).
    ['incident_rules', { kind: 'soft', noun: 'rule' }],
    ['connections', { kind: 'soft', noun: 'connection' }],
    // DELETE /api/notification/{id}, /api/notification/silence/{id}, /api/logging_backends/{id},
    // /api/maintenance-window/{id}, /api/status-page/{id}: their own soft delete.
    ['notifications', { kind: 'soft', noun: 'rule', remove: (id) => deleteNotification(db, id) }],
    ['notification_silences', { kind: 'soft', noun: 'silence', remove: (id) => deleteSilence(db, id) }],
    ['logging_backends', { kind: 'soft', noun: 'log backend', remove: (id) => deleteLoggingBackend(db, id) }],
    [
      'maintenance_windows',
      { kind: 'soft', noun: 'maintenance window', remove: (id) => deleteMaintenanceWindow(db, id) },
    ],
    ['status_pages', { kind: 'soft', noun: 'status page', remove: (id) => deleteStatusPage(db, id) }],
    // DELETE /api/agent/{id} (cleanup=false): the agents_soft_delete trigger does the rest.
    ['agents', { kind: 'soft', noun: 'agent' }],
    // DELETE /api/tokens/{id} removes the row (revocation).
    ['access_tokens', { kind: 'plain', noun: 'token' }],
    // A check is an entry of its canary's spec: removed by changing the spec.
    ['checks', { kind: 'refuse', endpoint: "its canary's spec (POST /api/canary or PATCH /api/db/canaries)" }],
  ]);
}
