// The status page form (Settings → Status Pages) and the StatusPage resource it stands for: each
// section lists its checks and components one per line — a UUID is an id, `label: <selector>` a
// label selector, anything else a name. Pure, unit tested.
export const STATUS_PAGE_API_VERSION = 'opsdeck.dev/v1';
export const STATUS_PAGE_KIND = 'StatusPage';

export type Entry = { name: string } | { id: string } | { labelSelector: string };

export interface SectionForm {
  name: string;
  /** One entry a line. */
  checks: string;
  components: string;
}

export interface StatusPageForm {
  slug: string;
  title: string;
  description: string;
  logo: string;
  footer: string;
  private: boolean;
  sections: SectionForm[];
}

export interface StatusPageResource {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: {
    title: string;
    description?: string;
    logo?: string;
    footer?: string;
    private?: boolean;
    sections: { name: string; checks?: Entry[]; components?: Entry[] }[];
  };
}

export const EMPTY_SECTION: SectionForm = { name: '', checks: '', components: '' };

export const EMPTY_STATUS_PAGE_FORM: StatusPageForm = {
  slug: '',
  title: '',
  description: '',
  logo: '',
  footer: '',
  private: false,
  sections: [{ ...EMPTY_SECTION, name: 'Services' }],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LABEL_PREFIX = /^label:\s*/i;

export function entryOfLine(line: string): Entry | undefined {
  const text = line.trim();
  if (!text) return undefined;
  if (UUID.test(text)) return { id: text.toLowerCase() };
  if (LABEL_PREFIX.test(text)) return { labelSelector: text.replace(LABEL_PREFIX, '').trim() };
  return { name: text };
}

export function lineOfEntry(entry: Entry): string {
  if ('id' in entry) return entry.id;
  if ('labelSelector' in entry) return `label: ${entry.labelSelector}`;
  return entry.name;
}

const entries = (text: string) =>
  text
    .split('\n')
    .map(entryOfLine)
    .filter((e): e is Entry => e !== undefined);

export function resourceOfForm(form: StatusPageForm): StatusPageResource {
  const optional = (key: 'description' | 'logo' | 'footer') => (form[key].trim() ? { [key]: form[key].trim() } : {});
  return {
    apiVersion: STATUS_PAGE_API_VERSION,
    kind: STATUS_PAGE_KIND,
    metadata: { name: form.slug.trim() },
    spec: {
      title: form.title.trim(),
      ...optional('description'),
      ...optional('logo'),
      ...optional('footer'),
      private: form.private,
      sections: form.sections.map((s) => {
        const checks = entries(s.checks);
        const components = entries(s.components);
        return {
          name: s.name.trim(),
          ...(checks.length ? { checks } : {}),
          ...(components.length ? { components } : {}),
        };
      }),
    },
  };
}

export function formOfResource(resource: StatusPageResource): StatusPageForm {
  const spec = resource.spec;
  return {
    slug: resource.metadata.name,
    title: spec.title ?? '',
    description: spec.description ?? '',
    logo: spec.logo ?? '',
    footer: spec.footer ?? '',
    private: spec.private ?? false,
    sections: (spec.sections ?? []).map((s) => ({
      name: s.name,
      checks: (s.checks ?? []).map(lineOfEntry).join('\n'),
      components: (s.components ?? []).map(lineOfEntry).join('\n'),
    })),
  };
}

/** What the form must have before it is sent (the server checks the rest). */
export function formProblems(form: StatusPageForm): Partial<Record<'slug' | 'title', string>> {
  const out: Partial<Record<'slug' | 'title', string>> = {};
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(form.slug.trim()))
    out.slug = 'Use 1-63 lower-case letters, digits and "-" (it is the page\'s address)';
  if (!form.title.trim()) out.title = 'Give the page a title';
  return out;
}
