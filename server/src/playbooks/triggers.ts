// Which `on` event triggers an event matches (pure): check.failed → on.check / on.canary entries with
// event "failed"; component.<health> → on.component; config.created|updated|deleted|<health> →
// on.config. An entry matches when its labels are all on the resource and its CEL filter (over
// check/canary/component/config and event) is true.
import { evaluateCel } from '../expr/index.js';
import type { ResourceKind } from '../selectors/resourceSelector.js';
import { TRIGGER_EVENTS, type PlaybookTriggers, type TriggerEvent, type TriggerKind } from './triggerSpec.js';

export interface EventTriggerKey {
  /** The resource kind the event is about. */
  resource: ResourceKind;
  /** The `on` lists that listen for it. */
  lists: TriggerKind[];
  /** The event word, e.g. failed, unhealthy, updated. */
  word: string;
}

/** What an event_queue name means for triggers; undefined for events no trigger listens for. */
export function eventTriggerKey(eventName: string): EventTriggerKey | undefined {
  const [head, word, ...rest] = eventName.split('.');
  if (!word || rest.length) return undefined;
  if (head === 'check' && TRIGGER_EVENTS.check.includes(word))
    return { resource: 'check', lists: ['check', 'canary'], word };
  if (head === 'component' && TRIGGER_EVENTS.component.includes(word))
    return { resource: 'component', lists: ['component'], word };
  if (head === 'config' && TRIGGER_EVENTS.config.includes(word)) return { resource: 'config', lists: ['config'], word };
  return undefined;
}

/** The playbook's trigger entries listening for this event (before labels and filters). */
export function listeningTriggers(on: PlaybookTriggers | undefined, key: EventTriggerKey): TriggerEvent[] {
  if (!on) return [];
  return key.lists.flatMap((list) => (on[list] ?? []).filter((t) => t.event === key.word));
}

export type TriggerOutcome = { matched: true } | { matched: false; error?: string };

/**
 * Whether one trigger entry matches the resource: every label present with its value, and the filter
 * (CEL) true. A filter that fails to evaluate does not match; its error is returned for the log.
 */
export function triggerMatches(
  t: TriggerEvent,
  labels: Record<string, string>,
  env: Record<string, unknown>,
): TriggerOutcome {
  for (const [k, v] of Object.entries(t.labels ?? {})) if (labels[k] !== v) return { matched: false };
  if (!t.filter?.trim()) return { matched: true };
  try {
    const result = evaluateCel(t.filter, env);
    return result === true || result === 'true' ? { matched: true } : { matched: false };
  } catch (e) {
    return { matched: false, error: (e as Error).message };
  }
}
