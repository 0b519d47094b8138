// The Maintenance form and the MaintenanceWindow resource it becomes (applied at
// POST /api/maintenance-window): a one-off window (start and end, entered in local time, sent as
// instants) or a recurring one (cron schedule, duration, time zone); checks and components one a line
// (a name, an id, or label: key=value), status pages by address. Pure, for the dialog and its tests.

export interface MaintenanceEntry {
  name?: string;
  id?: string;
  labelSelector?: string;
}

export interface MaintenanceResource {
  apiVersion: 'opsdeck.dev/v1';
  kind: 'MaintenanceWindow';
  metadata: { name: string };
  spec: {
    message?: string;
    start?: string;
    end?: string;
    schedule?: string;
    duration?: string;
    timezone?: string;
    checks?: MaintenanceEntry[];
    components?: MaintenanceEntry[];
    statusPages?: string[];
    silence?: boolean;
  };
}

export interface MaintenanceForm {
  name: string;
  message: string;
  kind: 'once' | 'recurring';
  /** datetime-local values (local time, no offset). */
  start: string;
  end: string;
  schedule: string;
  duration: string;
  timezone: string;
  checks: string;
  components: string;
  statusPages: string;
  silence: boolean;
}

export const EMPTY_MAINTENANCE_FORM: MaintenanceForm = {
  name: '',
  message: '',
  kind: 'once',
  start: '',
  end: '',
  schedule: '',
  duration: '',
  timezone: '',
  checks: '',
  components: '',
  statusPages: '',
  silence: true,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME = /^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/i;
const SLUG = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** One line of the checks or components field as an entry. */
export function entryOfLine(line: string): MaintenanceEntry {
  const label = /^label:\s*(.+)$/i.exec(line);
  if (label) return { labelSelector: label[1]!.trim() };
  if (UUID.test(line)) return { id: line.toLowerCase() };
  return { name: line };
}

const lineOfEntry = (e: MaintenanceEntry) => (e.labelSelector ? `label: ${e.labelSelector}` : (e.id ?? e.name ?? ''));

/** An instant as a datetime-local value in the browser's zone ("2026-03-01T10:00"). */
export function localInputOf(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const instantOf = (local: string) => {
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
};

export function formProblems(form: MaintenanceForm): Partial<Record<keyof MaintenanceForm, string>> {
  const p: Partial<Record<keyof MaintenanceForm, string>> = {};
  if (!form.name.trim()) p.name = 'A name is required';
  else if (!NAME.test(form.name.trim())) p.name = 'Use letters, digits, "-", "_" and "."';
  if (form.kind === 'once') {
    const start = form.start ? instantOf(form.start) : undefined;
    const end = form.end ? instantOf(form.end) : undefined;
    if (!start) p.start = 'A start is required';
    if (!end) p.end = 'An end is required';
    if (start && end && end <= start) p.end = 'The end must be after the start';
  } else {
    if (!form.schedule.trim()) p.schedule = 'A schedule is required, e.g. 0 2 * * 0';
    if (!form.duration.trim()) p.duration = 'A duration is required, e.g. 2h';
  }
  const bad = lines(form.statusPages).find((s) => !SLUG.test(s));
  if (bad) p.statusPages = `"${bad}" is not a status page address`;
  if (!lines(form.checks).length && !lines(form.components).length && !lines(form.statusPages).length)
    p.checks = 'Choose what is in maintenance: checks, components or status pages';
  return p;
}

export function resourceOfForm(form: MaintenanceForm): MaintenanceResource {
  const spec: MaintenanceResource['spec'] = { message: form.message };
  if (form.kind === 'once') {
    spec.start = instantOf(form.start) ?? form.start;
    spec.end = instantOf(form.end) ?? form.end;
  } else {
    spec.schedule = form.schedule.trim();
    spec.duration = form.duration.trim();
    if (form.timezone.trim()) spec.timezone = form.timezone.trim();
  }
  const checks = lines(form.checks).map(entryOfLine);
  const components = lines(form.components).map(entryOfLine);
  const pages = lines(form.statusPages);
  if (checks.length) spec.checks = checks;
  if (components.length) spec.components = components;
  if (pages.length) spec.statusPages = pages;
  spec.silence = form.silence;
  return { apiVersion: 'opsdeck.dev/v1', kind: 'MaintenanceWindow', metadata: { name: form.name.trim() }, spec };
}

export function formOfResource(r: MaintenanceResource): MaintenanceForm {
  const s = r.spec ?? {};
  return {
    name: r.metadata?.name ?? '',
    message: s.message ?? '',
    kind: s.schedule ? 'recurring' : 'once',
    start: localInputOf(s.start),
    end: localInputOf(s.end),
    schedule: s.schedule ?? '',
    duration: s.duration ?? '',
    timezone: s.timezone ?? '',
    checks: (s.checks ?? []).map(lineOfEntry).join('\n'),
    components: (s.components ?? []).map(lineOfEntry).join('\n'),
    statusPages: (s.statusPages ?? []).join('\n'),
    silence: s.silence ?? true,
  };
}
