// Grouping (mission-control `groupBy`, Alertmanager's group_by / group_wait): rows of one rule and
// recipient whose resources share the groupBy values within the group interval become one message.
// The first is a pending leader held for the group wait so the others can join; later ones, while the
// leader is still pending, are `grouped` under it (group_id = leader id) and delivery lists them all.
import type { EventResource } from './context.js';

export const DEFAULT_GROUP_WAIT_MS = 30_000;
export const DEFAULT_GROUP_INTERVAL_MS = 60 * 60_000;

/** One groupBy key's value for a resource: type, name, namespace, status, health, component, canary, label:<k>, tag:<k>. */
export function groupValue(r: EventResource, key: string): string {
  const k = key.trim();
  if (k.startsWith('label:')) return r.labels[k.slice(6)] ?? '';
  if (k.startsWith('tag:')) return r.tags[k.slice(4)] ?? '';
  switch (k) {
    case 'type':
      return r.type ?? '';
    case 'name':
      return r.name;
    case 'namespace':
      return r.namespace ?? '';
    case 'status':
      return r.status ?? '';
    case 'health':
      return r.health ?? '';
    case 'component':
      return [...r.componentIds].sort().join(',');
    case 'canary':
      return r.canaryId ?? '';
    case 'kind':
      return r.kind;
    default:
      return r.labels[k] ?? r.tags[k] ?? '';
  }
}

/** The group key of a row: the event, the groupBy values and the recipient. */
export function groupKey(groupBy: string[], r: EventResource, eventName: string, recipient: string): string {
  return JSON.stringify([eventName, ...groupBy.map((k) => `${k}=${groupValue(r, k)}`), recipient]);
}
