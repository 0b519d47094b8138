// Which resource a playbook runs on (spec/1 §3): the kinds, their labels, and the one id a run
// request carries. Apart from runForm.ts so that the Playbooks menu loads without the run form's
// YAML reader.
import type { PlaybookResourceRef } from './types';

export type ResourceKind = 'config' | 'component' | 'check';

export const RESOURCE_KINDS: readonly ResourceKind[] = ['config', 'component', 'check'];

export const RESOURCE_LABELS: Record<ResourceKind, string> = {
  config: 'Catalog Item',
  component: 'Component',
  check: 'Check',
};

const ID_FIELD = { config: 'config_id', component: 'component_id', check: 'check_id' } as const;

/** The kind of the resource given to the modal, if one is. */
export function givenResourceKind(ref: PlaybookResourceRef): ResourceKind | undefined {
  return RESOURCE_KINDS.find((k) => !!ref[ID_FIELD[k]]);
}

export function resourceRef(kind: ResourceKind, id: string): PlaybookResourceRef {
  return { [ID_FIELD[kind]]: id };
}

/** Only the id of the resource (a menu may pass a label alongside). */
export function pickResourceRef(ref: PlaybookResourceRef): PlaybookResourceRef {
  const kind = givenResourceKind(ref);
  return kind ? resourceRef(kind, ref[ID_FIELD[kind]]!) : {};
}

/** The kinds of resource a playbook declares selectors for (configs, components, checks). */
export function acceptedKinds(spec: { configs?: unknown; components?: unknown; checks?: unknown }): ResourceKind[] {
  const declared = (v: unknown) => Array.isArray(v) && v.length > 0;
  return RESOURCE_KINDS.filter((k) =>
    declared(spec[k === 'config' ? 'configs' : k === 'component' ? 'components' : 'checks']),
  );
}
