// Go text/template, the subset specs use (`display.template`, notification titles and bodies,
// scraper fields), written by hand: there is no maintained JavaScript port.
//
// Supported: text and {{actions}}; trim markers `{{- ` and ` -}}`; comments {{/* */}}; `.`,
// fields `.a.b`, variables `$`, `$x`, `$x.a`; literals (strings "…" and `raw`, chars 'a',
// numbers incl. hex/octal/binary/exponents, true/false/nil); pipelines `.x | f a b` (the piped
// value is the last argument); parenthesised pipelines `(f .x).field`; `$x := …` and `$x = …`;
// if / else if / else, with / else with / else, range (lists, maps in sorted key order, integers;
// `$i, $e :=`; else; break; continue); define / template / block. Functions: see
// template-funcs.ts (Go built-ins plus common sprig ones); `and`/`or` short-circuit as in Go.
//
// Differences from Go, chosen for templates that render messages from loosely shaped data:
//   - a missing field, or a field of a missing value, is "missing": it prints "<no value>" (as
//     Go does for a missing map key), is false in if/with, and `default` replaces it; JSON null
//     behaves the same. A field of a string/number/list is an error, as in Go.
//   - on lists, `._0`, `._1`… select elements (so sprig's `(split "," .x)._0` works);
//   - Durations (duration.ts) have Go's `.Hours`, `.Minutes`, `.Seconds`, `.Milliseconds` and
//     `.String`; dates have `.Unix`, `.UnixMilli`, `.Year`, `.Month`, `.Day`, `.Hour`,
//     `.Minute`, `.Second`, `.UTC`, `.String`;
//   - numbers print as Go ints when integral (see gofmt.ts).
//
// Limits: templates longer than TEMPLATE_MAX_LENGTH are refused; execution stops with an
// ExpressionError after TEMPLATE_MAX_STEPS steps (actions, iterations, calls) or when the output
// passes TEMPLATE_MAX_OUTPUT characters, and nested {{template}} calls are capped.
// Parsed templates are cached (LRU) by source text. Errors are ExpressionErrors with the line
// and column of the offending action.
//
// The engine is split by stage: templateLex.ts (lexer), templateParse.ts (parser),
// templateExec.ts (execution, limits on steps and output); this file is the public entry.

import { ExpressionError, errorAt, messageOf } from './errors.js';
import { LruCache } from './lru.js';
import { BREAK, CONTINUE, Executor } from './templateExec.js';
import { lex, TemplateProblem } from './templateLex.js';
import { Parser, type ParsedTemplate } from './templateParse.js';

export { TEMPLATE_MAX_OUTPUT, TEMPLATE_MAX_STEPS } from './templateExec.js';

export const TEMPLATE_MAX_LENGTH = 512 * 1024;
export const TEMPLATE_CACHE_SIZE = 500;

const cache = new LruCache<string, ParsedTemplate>(TEMPLATE_CACHE_SIZE);

function toExpressionError(error: unknown, src: string): ExpressionError {
  if (error instanceof ExpressionError) return error;
  if (error instanceof TemplateProblem) {
    const what = error.phase === 'parse' ? 'Template syntax error' : 'Template error';
    return errorAt('template', what, error.message, src, error.pos, error);
  }
  if (error === BREAK || error === CONTINUE)
    return errorAt('template', 'Template error', 'break/continue outside range', src, undefined);
  return errorAt('template', 'Template error', messageOf(error), src, undefined, error);
}

/** Parse (or fetch from the cache) a template. Throws ExpressionError with line and column. */
export function parseTemplate(tpl: string): ParsedTemplate {
  const cached = cache.get(tpl);
  if (cached) return cached;
  if (tpl.length > TEMPLATE_MAX_LENGTH) {
    throw new ExpressionError(`Template is too long (${tpl.length} characters; the limit is ${TEMPLATE_MAX_LENGTH})`, {
      language: 'template',
      expression: tpl.slice(0, 200),
    });
  }
  let parsed: ParsedTemplate;
  try {
    parsed = new Parser(lex(tpl)).parse();
  } catch (error) {
    throw toExpressionError(error, tpl);
  }
  cache.set(tpl, parsed);
  return parsed;
}

/**
 * Render a Go template with `data` as `.` and `$`. Missing fields render as "<no value>" (as
 * Go does for a missing map key). Throws ExpressionError on syntax and execution errors.
 */
export function renderTemplate(tpl: string, data: unknown): string {
  const parsed = parseTemplate(tpl);
  try {
    return new Executor(parsed, data).run(data);
  } catch (error) {
    throw toExpressionError(error, tpl);
  }
}
