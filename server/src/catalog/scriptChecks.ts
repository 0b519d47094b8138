// Apply-time checks of the scripts a ScrapeConfig carries, with the shared checker
// (resources/scripts.ts: CEL syntax and unknown functions, Go templates, JavaScript compiled in the
// sandbox's engine without running): a mistake is a 400 naming the field path, its line and column
// and the place inside the script, instead of failing every scrape.
//
// Where scripts are in a scraper entry: transform.{expr, javascript, gotemplate, template} (also
// under transform.script), transform.mask[].selector and transform.relationship[].filter (CEL),
// relationship fields written {expr} (CEL), and `{{ }}` in id/name/type/class (Go templates).
import { javascriptErrors, scriptErrors, type ScriptField, type ScriptKind } from '../resources/scripts.js';
import { ResourceErrors, type Path, type ResourceDocument, type ResourceError } from '../resources/yaml.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The scripts of one scraper entry (at `path` in the document), as written. */
export function entryScriptFields(entry: unknown, path: Path): ScriptField[] {
  if (!isObject(entry)) return [];
  const out: ScriptField[] = [];
  const add = (at: Path, kind: ScriptKind, source: unknown) => {
    if (typeof source === 'string' && source.trim() !== '') out.push({ path: [...path, ...at], kind, source });
  };
  for (const field of ['id', 'name', 'type', 'class']) {
    const v = entry[field];
    if (typeof v === 'string' && v.includes('{{') && !v.startsWith('$')) add([field], 'template', v);
  }
  const t = entry.transform;
  if (!isObject(t)) return out;
  for (const [scope, s] of [
    [['transform'], t],
    [['transform', 'script'], t.script],
  ] as const) {
    if (!isObject(s)) continue;
    add([...scope, 'expr'], 'expr', s.expr);
    add([...scope, 'javascript'], 'javascript', s.javascript);
    add([...scope, 'gotemplate'], 'template', s.gotemplate);
    add([...scope, 'template'], 'template', s.template);
  }
  if (Array.isArray(t.mask))
    t.mask.forEach((m, i) => isObject(m) && add(['transform', 'mask', i, 'selector'], 'expr', m.selector));
  if (Array.isArray(t.relationship))
    t.relationship.forEach((r, i) => {
      if (!isObject(r)) return;
      add(['transform', 'relationship', i, 'filter'], 'expr', r.filter);
      for (const field of ['id', 'external_id', 'type', 'name', 'namespace']) {
        const v = r[field];
        if (isObject(v)) add(['transform', 'relationship', i, field, 'expr'], 'expr', v.expr);
      }
    });
  return out;
}

/** The scripts of every scraper entry in a ScrapeConfig document, for the types `scraperTypes` knows. */
export function scrapeConfigScriptFields(doc: ResourceDocument, scraperTypes: Iterable<string>): ScriptField[] {
  const spec = isObject(doc.data) && isObject(doc.data.spec) ? doc.data.spec : {};
  const out: ScriptField[] = [];
  for (const type of scraperTypes) {
    const entries = spec[type];
    if (Array.isArray(entries)) entries.forEach((e, i) => out.push(...entryScriptFields(e, ['spec', type, i])));
  }
  return out;
}

/** CEL and template problems of one entry (synchronous: part of parseScrapeConfig). */
export function entryScriptErrors(doc: ResourceDocument, entry: unknown, path: Path): ResourceError[] {
  return scriptErrors(doc, entryScriptFields(entry, path));
}

/**
 * Runs `parse` (which throws ResourceErrors for everything but JavaScript) and compiles the
 * JavaScript transforms; all problems together, in document order.
 */
export async function withJavascriptChecked<T>(
  doc: ResourceDocument,
  scraperTypes: Iterable<string>,
  parse: () => T,
): Promise<T> {
  let parsed: T | undefined;
  const errors: ResourceError[] = [];
  try {
    parsed = parse();
  } catch (e) {
    if (!(e instanceof ResourceErrors)) throw e;
    errors.push(...e.errors);
  }
  errors.push(...(await javascriptErrors(doc, scrapeConfigScriptFields(doc, scraperTypes))));
  if (errors.length) {
    const line = (e: ResourceError) => e.position?.line ?? Number.MAX_SAFE_INTEGER;
    throw new ResourceErrors(errors.sort((a, b) => line(a) - line(b)).slice(0, 50));
  }
  return parsed as T;
}
