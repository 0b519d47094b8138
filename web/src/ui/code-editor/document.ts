// Reads a YAML or JSON document from an editor, checks it against a JSON Schema and says on
// which line each problem is: syntax errors from the parser, schema errors located through the
// parsed document's source ranges.
import { isNode, LineCounter, parseDocument, stringify } from 'yaml';
import { describeSchemaError, validateJsonSchema, type JsonSchema } from '@opsdeck/common/jsonSchema';

export type DocumentLanguage = 'yaml' | 'json';

export interface DocumentProblem {
  /** One-based line. */
  line: number;
  /** One-based column, when known (errors reported by the server). */
  column?: number;
  message: string;
}

export interface ParsedDocument {
  /** The parsed value; undefined when the text does not parse. */
  value: unknown;
  problems: DocumentProblem[];
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < Math.min(offset, text.length); i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** V8's JSON.parse errors name a position ("… in JSON at position 42 (line 3 column 5)"). */
function jsonSyntaxProblem(text: string, error: unknown): DocumentProblem {
  const message = error instanceof Error ? error.message : String(error);
  const lineCol = /\(line (\d+) column \d+\)/.exec(message);
  const position = /at position (\d+)/.exec(message);
  const line = lineCol ? Number(lineCol[1]) : position ? lineOfOffset(text, Number(position[1])) : 1;
  const clean = message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
  return { line, message: clean };
}

export function parseEditorDocument(text: string, language: DocumentLanguage, schema?: JsonSchema): ParsedDocument {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  let value: unknown;

  if (language === 'json') {
    try {
      value = text.trim() ? JSON.parse(text) : undefined;
    } catch (e) {
      return { value: undefined, problems: [jsonSyntaxProblem(text, e)] };
    }
  } else {
    if (doc.errors.length) {
      return {
        value: undefined,
        problems: doc.errors.map((err) => ({
          line: lineCounter.linePos(err.pos[0]).line,
          message: err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, ''),
        })),
      };
    }
    value = doc.toJS();
  }

  if (!schema) return { value, problems: [] };
  const problems = validateJsonSchema(schema, value ?? null).map((error) => {
    // The node of the offending value (or its nearest existing parent) gives the line.
    let node: unknown;
    for (let depth = error.path.length; depth >= 0 && !node; depth--) {
      node = depth === 0 ? doc.contents : doc.getIn(error.path.slice(0, depth), true);
    }
    const start = isNode(node) && node.range ? node.range[0] : 0;
    return { line: lineCounter.linePos(start).line, message: describeSchemaError(error) };
  });
  return { value, problems };
}

/** A value as editor text in the chosen language. */
export function formatEditorDocument(value: unknown, language: DocumentLanguage): string {
  if (value === undefined) return '';
  return language === 'json' ? `${JSON.stringify(value, null, 2)}\n` : stringify(value, { indent: 2, lineWidth: 0 });
}

/** 'Line 3: missing required property …', or 'Line 3, column 7: …' when the column is known. */
export function describeProblem(problem: DocumentProblem): string {
  return `Line ${problem.line}${problem.column ? `, column ${problem.column}` : ''}: ${problem.message}`;
}
