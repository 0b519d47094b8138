// Text a scraper read (a file, a response body, a script's output) as documents: JSON, YAML
// (several documents separated by ---) or plain text kept as {content}.
import { parseAllDocuments } from 'yaml';

export type TextFormat = 'json' | 'yaml' | 'text';

/** The documents in `text`; `format` forces one, otherwise JSON is tried before YAML. */
export function parseText(text: string, format?: string): { docs: unknown[]; format: 'json' | 'yaml' } {
  const f = format?.toLowerCase();
  if (f === 'text' || f === 'txt' || f === 'properties') return { docs: [{ content: text }], format: 'json' };
  if (f !== 'yaml' && f !== 'yml') {
    const trimmed = text.trim();
    if (f === 'json' || trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        return { docs: [JSON.parse(trimmed) as unknown], format: 'json' };
      } catch (e) {
        if (f === 'json') throw new Error(`not valid JSON: ${(e as Error).message}`);
      }
    }
  }
  const docs = parseAllDocuments(text, { prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [];
  const out: unknown[] = [];
  for (const doc of list) {
    if (doc.errors.length) {
      const err = doc.errors[0]!;
      throw new Error(`not valid YAML: ${err.message.split('\n')[0]}`);
    }
    if (doc.contents === null) continue;
    out.push(doc.toJS({ maxAliasCount: 100 }));
  }
  return { docs: out, format: 'yaml' };
}

/** The format a file's name suggests. */
export function formatOfPath(file: string): string | undefined {
  if (/\.json$/i.test(file)) return 'json';
  if (/\.ya?ml$/i.test(file)) return 'yaml';
  return undefined;
}
