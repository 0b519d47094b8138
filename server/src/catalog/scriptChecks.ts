// Apply-time checks of the scripts a ScrapeConfig carries (transform expr/javascript/gotemplate,
// mask selectors, relationship filters, `{{...}}` fields): a syntax error is refused when the
// resource is applied, with the field's path, line and column and the place inside the script,
// instead of failing every scrape. Nothing is run: CEL is compiled, templates parsed, JavaScript
// only compiled by V8 (never run here; scripts run in the QuickJS sandbox, expr/javascript.ts).
import vm from 'node:vm';
import { compileCel, parseTemplate } from '../expr/index.js';
import { JAVASCRIPT_MAX_SCRIPT_LENGTH } from '../expr/javascript.js';
import type { Path } from '../resources/yaml.js';
import type { BaseScraperSpec } from './scraper.js';

export type ScriptKind = 'cel' | 'template' | 'javascript';

/** V8's SyntaxError → "JavaScript syntax error at line L, column C: message" (the stack has line and caret). */
function javascriptProblem(code: string): string | undefined {
  if (code.length > JAVASCRIPT_MAX_SCRIPT_LENGTH)
    return `JavaScript is too long (${code.length} characters; the limit is ${JAVASCRIPT_MAX_SCRIPT_LENGTH})`;
  const compile = (src: string) => new vm.Script(src, { filename: 'transform.js' });
  try {
    compile(code);
    return undefined;
  } catch (e) {
    if (!(e instanceof SyntaxError)) return (e as Error).message;
    // A script with a top-level return runs as a function body (expr/javascript.ts).
    if (/Illegal return/.test(e.message)) {
      try {
        compile(`(function () {\n${code}\n})`);
        return undefined;
      } catch {
        // reported below as the program's error
      }
    }
    const stack = String(e.stack ?? '');
    const line = Number(/^transform\.js:(\d+)/.exec(stack)?.[1] ?? 0);
    const caret = /\n( *)\^/.exec(stack)?.[1]?.length;
    const where = line ? ` at line ${line}${caret !== undefined ? `, column ${caret + 1}` : ''}` : '';
    return `JavaScript syntax error${where}: ${e.message}`;
  }
}

/** What is wrong with a script of this kind, or undefined when it compiles. */
export function scriptProblem(kind: ScriptKind, source: string): string | undefined {
  try {
    if (kind === 'cel') compileCel(source);
    else if (kind === 'template') parseTemplate(source);
    else return javascriptProblem(source);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

type Report = (path: Path, message: string) => void;

/** Every script of one scraper entry, checked; problems reported at their field. */
export function checkEntryScripts(spec: BaseScraperSpec, path: Path, report: Report): void {
  const check = (kind: ScriptKind, source: unknown, at: Path) => {
    if (typeof source !== 'string' || source === '') return;
    const problem = scriptProblem(kind, source);
    if (problem) report([...path, ...at], problem);
  };
  // Fields that are Go templates when they contain {{ }}.
  for (const field of ['id', 'name', 'type', 'class'] as const) {
    const v = spec[field];
    if (typeof v === 'string' && v.includes('{{') && !v.startsWith('$')) check('template', v, [field]);
  }
  const t = spec.transform;
  if (!t) return;
  for (const [scope, s] of [
    [['transform', 'script'], t.script],
    [['transform'], t],
  ] as const) {
    if (!s) continue;
    check('cel', s.expr, [...scope, 'expr']);
    check('javascript', s.javascript, [...scope, 'javascript']);
    check('template', s.gotemplate, [...scope, 'gotemplate']);
    check('template', s.template, [...scope, 'template']);
  }
  t.mask?.forEach((m, i) => check('cel', m.selector, ['transform', 'mask', i, 'selector']));
  t.relationship?.forEach((r, i) => {
    check('cel', r.filter, ['transform', 'relationship', i, 'filter']);
    for (const field of ['id', 'external_id', 'type', 'name', 'namespace'] as const) {
      const v = r[field];
      if (v && typeof v === 'object' && typeof v.expr === 'string')
        check('cel', v.expr, ['transform', 'relationship', i, field, 'expr']);
    }
  });
}
