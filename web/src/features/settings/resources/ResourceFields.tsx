// The common fields at the top of a settings resource's Form tab: name, namespace, icon, schedule
// and labels, each shown when the kind has it.
import { Field, Input, Select, Textarea } from '../../../ui/input';
import { type SettingsResourceKind } from './kinds';
import { labelsToText, textToLabels } from './labelsText';
import { type ResourceDocument } from './resourcesApi';

const SCHEDULES = ['@every 30s', '@every 1m', '@every 5m', '@every 30m', '@hourly', '@every 6h', '@daily', '@weekly'];

export function ResourceFields({
  kind,
  doc,
  isNew,
  editable,
  set,
}: {
  kind: SettingsResourceKind;
  doc: ResourceDocument;
  /** Name and namespace can be changed only before the first save. */
  isNew: boolean;
  editable: boolean;
  set(field: string, value: unknown): void;
}) {
  const has = (f: string) => (kind.fields as readonly string[]).includes(f);
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Field label="Name">
        {(fid) => (
          <Input
            id={fid}
            value={String(doc.name ?? '')}
            disabled={!isNew || !editable}
            onChange={(e) => set('name', e.target.value)}
          />
        )}
      </Field>
      {has('namespace') && (
        <Field label="Namespace">
          {(fid) => (
            <Input
              id={fid}
              value={String(doc.namespace ?? '')}
              disabled={!isNew || !editable}
              onChange={(e) => set('namespace', e.target.value)}
            />
          )}
        </Field>
      )}
      {has('icon') && (
        <Field label="Icon" hint="An icon name, for example kubernetes or slack.">
          {(fid, d) => (
            <Input
              id={fid}
              aria-describedby={d}
              value={String(doc.icon ?? '')}
              disabled={!editable}
              onChange={(e) => set('icon', e.target.value)}
            />
          )}
        </Field>
      )}
      {has('schedule') && (
        <Field label="Schedule">
          {(fid) => (
            <Select
              id={fid}
              value={String(doc.schedule ?? '')}
              disabled={!editable}
              onChange={(e) => set('schedule', e.target.value)}
            >
              <option value="">No schedule</option>
              {/* A schedule written in YAML (cron, @every 2m) stays selectable. */}
              {[
                ...SCHEDULES,
                ...(doc.schedule && !SCHEDULES.includes(String(doc.schedule)) ? [String(doc.schedule)] : []),
              ].map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </Select>
          )}
        </Field>
      )}
      {has('labels') && (
        <Field label="Labels" hint="One key=value per line." className="md:col-span-2">
          {(fid, d) => (
            <Textarea
              id={fid}
              aria-describedby={d}
              className="font-mono text-[12.5px]"
              defaultValue={labelsToText(doc.labels)}
              disabled={!editable}
              onChange={(e) => set('labels', textToLabels(e.target.value))}
            />
          )}
        </Field>
      )}
    </div>
  );
}
