// Text a scraper read (a file, a response body, a script's output) as documents, by `format` as
// config-db reads them: `json`, `yaml` (several documents separated by ---; also `yml`), none (JSON
// tried before YAML), `properties` (an object of the keys, see properties.ts), and any other format
// (`text`, `ini`, `toml`, `xml`...) kept as written: {format, content}.
import { parseAllDocuments } from 'yaml';
import { parseProperties } from './properties.js';

/** The documents in `text`; `format` forces one, otherwise JSON is tried before YAML. */
export function parseText(text: string, format?: string): { docs: unknown[]; format: 'json' | 'yaml' } {
  const f = format?.toLowerCase();
  if (f === 'properties') return { docs: [parseProperties(text)], format: 'json' };
  if (f && !['json', 'yaml', 'yml'].includes(f)) return { docs: [{ format, content: text }], format: 'json' };
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
