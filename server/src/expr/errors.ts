// ExpressionError: the one error type every expression module throws (CEL, Go templates,
// JavaScript, JSONPath), plus helpers that turn a source offset into a line/column and a
// one-line snippet with a caret, so a message can say exactly where a user's script went wrong.

/** Which evaluator raised the error ('script' for dispatch errors such as "no script given"). */
export type ExpressionLanguage = 'cel' | 'template' | 'javascript' | 'jsonpath' | 'script';

/** A place in a script's source text. */
export interface SourcePosition {
  /** 0-based offset into the source (UTF-16 code units). */
  offset: number;
  /** 1-based line number. */
  line: number;
  /** 1-based column within the line (UTF-16 code units). */
  column: number;
}

export interface ExpressionErrorOptions {
  language?: ExpressionLanguage;
  /** The script's source text, kept for callers that want to show it. */
  expression?: string;
  /** Where in `expression` the problem is, when known. */
  position?: SourcePosition;
  cause?: unknown;
}

/**
 * A user script could not be parsed or evaluated, or broke a limit (length, time, memory).
 * The message is meant for the person who wrote the script: it names the problem and, when
 * the position is known, the line and column with a snippet of the offending line.
 */
export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';
  readonly language?: ExpressionLanguage;
  readonly expression?: string;
  readonly position?: SourcePosition;

  constructor(message: string, options: ExpressionErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.language = options.language;
    this.expression = options.expression;
    this.position = options.position;
  }
}

/** Line and column (both 1-based) of `offset` in `source`; the offset is clamped to the source. */
export function positionAt(source: string, offset: number): SourcePosition {
  const at = Math.max(0, Math.min(offset, source.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { offset: at, line, column: at - lineStart + 1 };
}

/** Position of a 1-based line/column pair (as reported by an engine) in `source`. */
export function positionOfLineColumn(source: string, line: number, column: number): SourcePosition {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = source.indexOf('\n', offset);
    if (next < 0) break;
    offset = next + 1;
  }
  return positionAt(source, offset + Math.max(0, column - 1));
}

const SNIPPET_WIDTH = 100;

/**
 * The source line containing `position`, indented, with a caret under the column. Long lines
 * are cut to a window around the column (marked with "…").
 */
export function sourceSnippet(source: string, position: SourcePosition): string {
  const lines = source.split('\n');
  let text = (lines[position.line - 1] ?? '').replace(/[\t\r]/g, ' ');
  let caret = position.column - 1;
  if (text.length > SNIPPET_WIDTH) {
    const start = Math.max(0, Math.min(caret - SNIPPET_WIDTH / 2, text.length - SNIPPET_WIDTH));
    const end = start + SNIPPET_WIDTH;
    text = (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
    caret = caret - start + (start > 0 ? 1 : 0);
  }
  return `  ${text}\n  ${' '.repeat(Math.max(0, caret))}^`;
}

/**
 * Build an ExpressionError whose message reads
 * "<what> at line L, column C: <detail>" followed by the snippet, or "<what>: <detail>" plus the
 * (shortened) source when no position is known.
 */
export function errorAt(
  language: ExpressionLanguage,
  what: string,
  detail: string,
  source: string,
  offset: number | undefined,
  cause?: unknown,
): ExpressionError {
  if (offset === undefined) {
    const shown = source.length > 200 ? `${source.slice(0, 200)}…` : source;
    return new ExpressionError(`${what}: ${detail}\n  in: ${shown}`, { language, expression: source, cause });
  }
  const position = positionAt(source, offset);
  const message = `${what} at line ${position.line}, column ${position.column}: ${detail}\n${sourceSnippet(source, position)}`;
  return new ExpressionError(message, { language, expression: source, position, cause });
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
