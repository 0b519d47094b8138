// Reads Kubernetes-style resources from YAML (or JSON) and reports problems with the line and
// column a person can jump to: syntax errors from the parser, schema errors from zod paths.
import { isNode, isScalar, LineCounter, parseAllDocuments, type Document, type Scalar } from 'yaml';
import type { z } from 'zod';

export type Path = (string | number)[];

export interface Position {
  line: number;
  column: number;
}

export class ResourceError extends Error {
  constructor(
    message: string,
    readonly position?: Position,
    readonly path?: string,
    /** For a script's problem: where it is within the script (expression, template, JavaScript). */
    readonly scriptPosition?: Position,
  ) {
    super(position ? `${message} (line ${position.line}, column ${position.column})` : message);
  }

  toJSON() {
    const json = { message: this.message, path: this.path, line: this.position?.line, column: this.position?.column };
    return this.scriptPosition ? { ...json, script: this.scriptPosition } : json;
  }
}

/** Several problems at once, reported together. */
export class ResourceErrors extends Error {
  constructor(readonly errors: ResourceError[]) {
    super(errors.map((e) => e.message).join('; '));
  }
}

export interface ResourceDocument {
  /** The document as plain data. */
  data: unknown;
  /** Where a path is in the text; the nearest existing ancestor when the path is missing. */
  locate(path: Path): Position | undefined;
  /**
   * Where a position inside a string value (1-based line and column of the string) is in the
   * text, when that can be told: block scalars (`|`) and single-line plain or quoted scalars
   * (double-quoted only when no escape precedes the position).
   */
  locateIn?(path: Path, inner: Position): Position | undefined;
}

export const formatPath = (path: Path): string =>
  path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');

/** Collects problems at their place in `doc`: `error(path, message)` adds one to `errors`. */
export function errorCollector(doc: ResourceDocument): {
  errors: ResourceError[];
  error(path: Path, message: string): void;
} {
  const errors: ResourceError[] = [];
  const error = (path: Path, message: string) => {
    const where = formatPath(path);
    errors.push(new ResourceError(`${where}: ${message}`, doc.locate(path), where));
  };
  return { errors, error };
}

/** Splits a text into documents (`---`); refuses YAML with syntax errors, at their position. */
export function parseDocuments(text: string): ResourceDocument[] {
  if (text.length > 5_000_000) throw new ResourceError('the document is larger than 5 MB');
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (!Array.isArray(docs)) return []; // an empty stream
  const pos = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const errors: ResourceError[] = [];
  for (const doc of docs) {
    for (const err of doc.errors) errors.push(new ResourceError(err.message.split('\n')[0]!, pos(err.pos[0])));
  }
  if (errors.length) throw new ResourceErrors(errors);
  return docs
    .filter((doc) => doc.contents !== null)
    .map((doc: Document) => ({
      data: doc.toJS({ maxAliasCount: 100 }),
      locate(path: Path) {
        for (let n = path.length; n >= 0; n--) {
          const node = doc.getIn(path.slice(0, n), true);
          if (isNode(node) && node.range) return pos(node.range[0]);
        }
        return undefined;
      },
      locateIn(path: Path, inner: Position) {
        const node = doc.getIn(path, true);
        if (!isScalar(node) || !node.range || typeof node.value !== 'string') return undefined;
        return positionInScalar(text, node.type, node.range, inner, pos);
      },
    }));
}

/** See ResourceDocument.locateIn: `start` is the scalar's offset (its quote or block indicator). */
function positionInScalar(
  text: string,
  type: Scalar['type'],
  [start, end]: readonly number[],
  inner: Position,
  pos: (offset: number) => Position,
): Position | undefined {
  if (type === 'BLOCK_LITERAL') {
    // Content starts on the line after the indicator; its indentation is the first non-blank line's.
    const first = text.indexOf('\n', start) + 1;
    if (first <= 0) return undefined;
    const indent = /^(?:[ \t]*\r?\n)*( *)/.exec(text.slice(first))![1]!.length;
    return { line: pos(first).line + inner.line - 1, column: indent + inner.column };
  }
  // Flow scalars: only on one line, and with no escape before the position.
  if (inner.line !== 1 || end === undefined || text.slice(start, end).includes('\n')) return undefined;
  const origin = pos(start);
  if (type === 'PLAIN') return { line: origin.line, column: origin.column + inner.column - 1 };
  const before = text.slice(start + 1, start + inner.column);
  if (type === 'QUOTE_SINGLE' && !before.includes("'"))
    return { line: origin.line, column: origin.column + inner.column };
  if (type === 'QUOTE_DOUBLE' && !before.includes('\\'))
    return { line: origin.line, column: origin.column + inner.column };
  return undefined;
}

/** Validates a document's data with a schema; every issue becomes an error at its position. */
export function validate<T>(doc: ResourceDocument, schema: z.ZodType<T>, prefix: Path = []): T {
  const result = schema.safeParse(doc.data);
  if (result.success) return result.data;
  throw new ResourceErrors(
    result.error.issues.slice(0, 20).map((issue) => {
      const path = [...prefix, ...(issue.path as Path)];
      const where = formatPath(path);
      return new ResourceError(where ? `${where}: ${issue.message}` : issue.message, doc.locate(path), where);
    }),
  );
}

/** The 400 body for resource errors, as every apply endpoint answers them; undefined for other errors. */
export function resourceErrorBody(err: unknown) {
  const errors = err instanceof ResourceErrors ? err.errors : err instanceof ResourceError ? [err] : undefined;
  if (!errors) return undefined;
  const message = errors.map((e) => e.message).join('; ');
  return { error: message, message, code: 'INVALID_RESOURCE', errors: errors.map((e) => e.toJSON()) };
}
