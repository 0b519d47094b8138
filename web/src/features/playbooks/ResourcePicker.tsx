// The run modal's picker for the resource a playbook runs on and for picker parameters: the
// shared name picker over catalog items, components, checks, teams or people, narrowed by a
// parameter's `filter` types.
import { NamePicker } from '../../ui/name-picker';
import { playbookKeys } from './playbooksApi';

export type PickerTable = 'config_items' | 'components' | 'checks' | 'teams' | 'people';

/** A parameter's `filter` may narrow the types offered: {types: [...]} (or a list of such). */
function filterTypes(filter: unknown): string[] {
  const list = Array.isArray(filter) ? filter : [filter];
  return list.flatMap((f) =>
    f && typeof f === 'object' && Array.isArray((f as { types?: unknown }).types)
      ? (f as { types: unknown[] }).types.filter((t): t is string => typeof t === 'string')
      : [],
  );
}

export function ResourcePicker({
  table,
  onChange,
  filter,
  ...props
}: {
  table: PickerTable;
  /** The chosen row's id, or ''. */
  value: string;
  onChange(id: string, name: string): void;
  id?: string;
  /** The accessible name of the trigger (the field's label). */
  label: string;
  /** The chosen row's name when the caller knows it (else it is looked up). */
  selectedName?: string;
  filter?: unknown;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
}) {
  return (
    <NamePicker
      {...props}
      table={table}
      types={filterTypes(filter)}
      queryScope={playbookKeys.all}
      onChange={(o) => onChange(o.id, o.name ?? o.id)}
    />
  );
}
