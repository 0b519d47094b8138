// Patches a gitops action applies to YAML or JSON files, pure (text in, text out): a subset of
// yq/jq (`.a.b = value`, `del(.a.b)`, joined by `|`), a JSON merge patch (RFC 7386, `merge`) or a
// JSON patch (RFC 6902, `patch`). YAML is edited through the `yaml` Document model, so comments and
// the layout of what is not changed stay; every document of a multi-document file is patched (as yq
// does). JSON files (by extension) are written back as JSON, two-space indented.
import {
  Document,
  isCollection,
  isMap,
  isNode,
  isScalar,
  isSeq,
  parse as parseYaml,
  parseAllDocuments,
  Scalar,
  visit,
  type Node,
} from 'yaml';

export class PatchError extends Error {}

type Key = string | number;
export type PatchOp = { op: 'set'; path: Key[]; value: unknown } | { op: 'delete'; path: Key[] };

export interface JsonPatchOperation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

/** What one patch does: exactly one of these. */
export type Patch = { yq: string } | { merge: unknown } | { jsonPatch: JsonPatchOperation[] };

// ——— the yq/jq subset ———

/** Splits on `sep` outside quotes, brackets and parentheses. */
function splitTop(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && text.startsWith(sep, i) && (sep !== '=' || (text[i + 1] !== '=' && text[i - 1] !== '|'))) {
      parts.push(text.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  if (quote) throw new PatchError(`an unclosed ${quote} quote in ${JSON.stringify(text.trim())}`);
  parts.push(text.slice(start));
  return parts;
}

/** `.a.b[0]["c d"]."e"` → ['a', 'b', 0, 'c d', 'e']; `.` alone is the root. */
export function parsePath(text: string): Key[] {
  const src = text.trim();
  if (!src.startsWith('.')) throw new PatchError(`a path starts with "." (got ${JSON.stringify(src)})`);
  const keys: Key[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '.') {
      i++;
      if (i >= src.length) break;
      if (src[i] === '"') {
        const end = closingQuote(src, i);
        keys.push(JSON.parse(src.slice(i, end + 1)) as string);
        i = end + 1;
      } else if (src[i] !== '[') {
        const m = /^[A-Za-z_$][\w$-]*/.exec(src.slice(i));
        if (!m) throw new PatchError(`unexpected ${JSON.stringify(src.slice(i))} in path ${JSON.stringify(src)}`);
        keys.push(m[0]);
        i += m[0].length;
      }
    } else if (c === '[') {
      const end = src.indexOf(']', i);
      if (end < 0) throw new PatchError(`an unclosed [ in path ${JSON.stringify(src)}`);
      const inner = src.slice(i + 1, end).trim();
      if (/^\d+$/.test(inner)) keys.push(Number(inner));
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inner)) keys.push(JSON.parse(inner) as string);
      else
        throw new PatchError(
          `[${inner}] in path ${JSON.stringify(src)}: use an index such as [0] or a key such as ["name"]`,
        );
      i = end + 1;
    } else {
      throw new PatchError(`unexpected ${JSON.stringify(src.slice(i))} in path ${JSON.stringify(src)}`);
    }
  }
  return keys;
}

function closingQuote(src: string, start: number): number {
  for (let i = start + 1; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === '"') return i;
  }
  throw new PatchError(`an unclosed " in path ${JSON.stringify(src)}`);
}

/** A value as yq reads it: JSON, else YAML flow text (`{a: 1}`, `[x, y]`, 'single quoted'). */
function parseValue(text: string): unknown {
  const src = text.trim();
  if (!src) throw new PatchError('a value is missing after "="');
  try {
    return JSON.parse(src);
  } catch {
    try {
      return parseYaml(src) as unknown;
    } catch (e) {
      throw new PatchError(
        `${JSON.stringify(src)} is not a value (JSON or YAML): ${(e as Error).message.split('\n')[0]}`,
      );
    }
  }
}

/** The operations of a yq/jq expression in the supported subset; PatchError names what is not. */
export function parseYq(expression: string): PatchOp[] {
  const ops: PatchOp[] = [];
  for (const raw of splitTop(expression, '|')) {
    const statement = raw.trim();
    if (!statement) throw new PatchError(`an empty statement in ${JSON.stringify(expression)}`);
    const del = /^del\((.*)\)$/s.exec(statement);
    if (del) {
      ops.push({ op: 'delete', path: parsePath(del[1]!) });
      continue;
    }
    const sides = splitTop(statement, '=');
    if (sides.length !== 2 || /[+\-*/|]\s*$/.test(sides[0]!))
      throw new PatchError(
        `${JSON.stringify(statement)} is not supported: use assignments such as .spec.replicas = 3 or del(.metadata.annotations), joined by |`,
      );
    ops.push({ op: 'set', path: parsePath(sides[0]!), value: parseValue(sides[1]!) });
  }
  return ops;
}

// ——— RFC 6902 pointers ———

function pointer(text: string): string[] {
  if (text === '') return [];
  if (!text.startsWith('/')) throw new PatchError(`a JSON pointer starts with "/" (got ${JSON.stringify(text)})`);
  return text
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

// ——— applying to a YAML document ———

const plain = (v: unknown): unknown => (isNode(v) ? v.toJSON() : v);

/** The keys of `tokens` against the document: array indexes as numbers. */
function resolveKeys(doc: Document, tokens: string[], forAdd: boolean): Key[] {
  const keys: Key[] = [];
  for (const [i, t] of tokens.entries()) {
    const parent = keys.length ? doc.getIn(keys, true) : doc.contents;
    if (isSeq(parent)) {
      const last = i === tokens.length - 1;
      if (t === '-' && last && forAdd) keys.push(parent.items.length);
      else if (/^\d+$/.test(t)) keys.push(Number(t));
      else throw new PatchError(`"${t}" is not an index of the list at /${tokens.slice(0, i).join('/')}`);
    } else keys.push(t);
  }
  return keys;
}

function mustExist(doc: Document, keys: Key[], where: string) {
  if (keys.length && !doc.hasIn(keys)) throw new PatchError(`${where} does not exist`);
}

// Words YAML 1.1 readers (Kubernetes' among them) take for booleans: written quoted.
const YAML11_BOOLEAN = /^(y|yes|n|no|on|off)$/i;

/** A node for `value`; strings a YAML 1.1 reader would take for a boolean are quoted. */
function nodeFor(doc: Document, value: unknown): Node {
  const node = doc.createNode(value);
  visit(node, {
    Scalar(_, s) {
      if (typeof s.value === 'string' && YAML11_BOOLEAN.test(s.value)) s.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return node;
}

/** Sets a value; a scalar replacing a scalar keeps its node, so its comments stay. */
function setRoot(doc: Document, keys: Key[], value: unknown) {
  const existing = keys.length ? doc.getIn(keys, true) : doc.contents;
  if (isScalar(existing) && (value === null || typeof value !== 'object')) {
    const fresh = nodeFor(doc, value) as Scalar;
    existing.value = fresh.value;
    existing.type = fresh.type ?? (typeof value === 'string' ? existing.type : undefined);
    return;
  }
  if (keys.length === 0) doc.contents = nodeFor(doc, value);
  else doc.setIn(keys, nodeFor(doc, value));
}

function addAt(doc: Document, keys: Key[], value: unknown) {
  const parentKeys = keys.slice(0, -1);
  const parent = parentKeys.length ? doc.getIn(parentKeys, true) : doc.contents;
  const last = keys[keys.length - 1];
  if (isSeq(parent) && typeof last === 'number') {
    if (last > parent.items.length) throw new PatchError(`index ${last} is past the end of the list`);
    parent.items.splice(last, 0, nodeFor(doc, value));
    return;
  }
  if (keys.length && !isMap(parent))
    throw new PatchError(`the parent of /${keys.join('/')} is not an object or a list`);
  setRoot(doc, keys, value);
}

function applyJsonPatch(doc: Document, ops: JsonPatchOperation[]) {
  for (const [i, o] of ops.entries()) {
    const where = `patch[${i}] (${o.op} ${o.path})`;
    const get = (keys: Key[]) => plain(keys.length ? doc.getIn(keys, false) : doc.contents);
    switch (o.op) {
      case 'add':
        addAt(doc, resolveKeys(doc, pointer(o.path), true), o.value);
        break;
      case 'remove': {
        const keys = resolveKeys(doc, pointer(o.path), false);
        mustExist(doc, keys, where);
        doc.deleteIn(keys);
        break;
      }
      case 'replace': {
        const keys = resolveKeys(doc, pointer(o.path), false);
        mustExist(doc, keys, where);
        setRoot(doc, keys, o.value);
        break;
      }
      case 'move':
      case 'copy': {
        if (o.from === undefined) throw new PatchError(`${where}: from is required`);
        const from = resolveKeys(doc, pointer(o.from), false);
        mustExist(doc, from, `${where}: from ${o.from}`);
        const value = structuredClone(get(from));
        if (o.op === 'move') doc.deleteIn(from);
        addAt(doc, resolveKeys(doc, pointer(o.path), true), value);
        break;
      }
      case 'test': {
        const keys = resolveKeys(doc, pointer(o.path), false);
        mustExist(doc, keys, where);
        if (JSON.stringify(canonical(get(keys))) !== JSON.stringify(canonical(o.value)))
          throw new PatchError(`${where}: the value is ${JSON.stringify(get(keys))}, not ${JSON.stringify(o.value)}`);
        break;
      }
      default:
        throw new PatchError(
          `patch[${i}]: op must be add, remove, replace, move, copy or test (got ${JSON.stringify(o.op)})`,
        );
    }
  }
}

/** Sorted keys, for comparing values in `test`. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, canonical(x)]),
    );
  return v;
}

/** RFC 7386: objects merged key by key, null deletes, anything else replaces. */
function applyMerge(doc: Document, keys: Key[], patch: unknown) {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) {
    setRoot(doc, keys, patch);
    return;
  }
  const target = keys.length ? doc.getIn(keys, true) : doc.contents;
  if (!isMap(target)) setRoot(doc, keys, {});
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) doc.deleteIn([...keys, k]);
    else applyMerge(doc, [...keys, k], v);
  }
}

function applyOps(doc: Document, ops: PatchOp[]) {
  for (const o of ops) {
    if (o.op === 'delete') {
      if (o.path.length && doc.hasIn(o.path)) doc.deleteIn(o.path);
    } else if (o.path.length === 0) {
      doc.contents = nodeFor(doc, o.value);
    } else {
      // yq creates what is missing on the way (maps, or lists for numeric keys).
      if (!isCollection(doc.contents)) doc.contents = doc.createNode(typeof o.path[0] === 'number' ? [] : {});
      for (let i = 1; i < o.path.length; i++) {
        const at = o.path.slice(0, i);
        const node = doc.getIn(at, true);
        if (!isCollection(node)) doc.setIn(at, doc.createNode(typeof o.path[i] === 'number' ? [] : {}));
      }
      setRoot(doc, o.path, o.value);
    }
  }
}

/** The text of `file` after `patch`; PatchError when the file does not parse or the patch does not apply. */
export function applyPatch(file: string, text: string, patch: Patch): string {
  const json = /\.json$/i.test(file);
  const parsed = parseAllDocuments(text);
  // An empty file is one empty document (a patch then creates its content).
  const docs = parsed.length ? [...parsed] : [new Document({})];
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) throw new PatchError(`${file} is not valid ${json ? 'JSON' : 'YAML'}: ${error.message.split('\n')[0]}`);
  }
  const ops = 'yq' in patch ? parseYq(patch.yq) : undefined;
  for (const doc of docs) {
    if (ops) applyOps(doc, ops);
    else if ('jsonPatch' in patch) applyJsonPatch(doc, patch.jsonPatch);
    else if ('merge' in patch) applyMerge(doc, [], patch.merge);
  }
  if (json) return `${docs.map((d) => JSON.stringify(d.toJSON(), null, 2)).join('\n')}\n`;
  // Each document after the first keeps its own `---`.
  return docs.map((d) => d.toString()).join('');
}
