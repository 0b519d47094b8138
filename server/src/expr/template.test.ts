import { describe, expect, it } from 'vitest';
import { durationFromMs } from './duration.js';
import { ExpressionError } from './errors.js';
import {
  parseTemplate,
  renderTemplate,
  TEMPLATE_MAX_LENGTH,
  TEMPLATE_MAX_OUTPUT,
  TEMPLATE_MAX_STEPS,
} from './template.js';

const data = {
  code: 200,
  name: 'web',
  sslAge: durationFromMs(30 * 86_400_000 + 1234),
  elapsed: durationFromMs(1.5),
  json: {
    status: 'ok',
    items: [
      { name: 'a', n: 1, ok: true },
      { name: 'b', n: 2, ok: false },
      { name: 'c', n: 3, ok: true },
    ],
    empty: [],
    nothing: null,
  },
  labels: { zone: 'eu', app: 'api' },
  at: new Date('2024-03-05T07:08:09.120Z'),
};

const render = (tpl: string, d: unknown = data) => renderTemplate(tpl, d);

function templateError(tpl: string, d: unknown = data): ExpressionError {
  try {
    renderTemplate(tpl, d);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`expected ${tpl} to fail`);
}

describe('renderTemplate: values', () => {
  it('renders the FORMATS.md display template with a Go-style duration', () => {
    expect(render('code={{.code}}, age={{.sslAge}}')).toBe('code=200, age=720h0m1.234s');
  });

  it('prints text unchanged and fields, nested fields and dot', () => {
    expect(render('plain text')).toBe('plain text');
    expect(render('{{.name}}')).toBe('web');
    expect(render('{{.json.status}}')).toBe('ok');
    expect(render('{{ . }}', 'x')).toBe('x');
    expect(render('{{.}}', { b: 2, a: [1, 'x', null] })).toBe('map[a:[1 x <nil>] b:2]');
    expect(render('{{ .elapsed }}')).toBe('1.5ms');
    expect(render('{{ .at }}')).toBe('2024-03-05 07:08:09.12 +0000 UTC');
  });

  it('renders missing fields as "<no value>" like Go, including fields of missing values and null', () => {
    expect(render('[{{.missing}}]')).toBe('[<no value>]');
    expect(render('[{{.missing.deeper.still}}]')).toBe('[<no value>]');
    expect(render('[{{.json.nothing}}]')).toBe('[<no value>]');
    expect(render('[{{.json.nothing.x}}]')).toBe('[<no value>]');
  });

  it('refuses fields of strings, numbers and lists as Go does', () => {
    expect(templateError('{{.name.first}}').message).toMatch(/can't evaluate field first in type string/);
    expect(templateError('{{.code.x}}').message).toMatch(/can't evaluate field x in type int/);
    expect(templateError('{{.json.items.name}}').message).toMatch(
      /can't evaluate field name in type \[\]interface \{\}/,
    );
  });

  it('selects list elements with ._N (sprig split style)', () => {
    expect(render('{{ .json.items._1.name }}')).toBe('b');
    expect(render('{{ (split "," "x,y,z")._2 }}')).toBe('z');
  });

  it('gives durations and dates their Go methods', () => {
    expect(render('{{ .sslAge.Hours }}', { sslAge: durationFromMs(5_400_000) })).toBe('1.5');
    expect(
      render('{{ .d.Minutes }} {{ .d.Seconds }} {{ .d.Milliseconds }} {{ .d.String }}', { d: durationFromMs(90_500) }),
    ).toBe('1.5083333333333333 90.5 90500 1m30.5s');
    expect(
      render(
        '{{ .at.Year }}-{{ .at.Month }}-{{ .at.Day }} {{ .at.Hour }}:{{ .at.Minute }}:{{ .at.Second }} {{ .at.Unix }}',
      ),
    ).toBe('2024-March-5 7:8:9 1709622489');
    expect(render('{{ .at.UnixMilli }} {{ .at.UTC.Year }} {{ .at.String }}')).toBe(
      '1709622489120 2024 2024-03-05 07:08:09.12 +0000 UTC',
    );
  });

  it('does not reach into prototypes', () => {
    expect(render('[{{ .constructor }}][{{ .__proto__ }}][{{ .json.toString }}]')).toBe(
      '[<no value>][<no value>][<no value>]',
    );
  });
});

describe('renderTemplate: literals', () => {
  it('reads strings, raw strings, chars, numbers, booleans and nil', () => {
    expect(render('{{ "a\\tb\\n\\u00e9\\x41" }}')).toBe('a\tb\né' + 'A');
    expect(render('{{ `raw \\n {{ }}` }}')).toBe('raw \\n {{ }}');
    expect(render("{{ 'a' }}")).toBe('97');
    expect(
      render('{{ 42 }} {{ -3 }} {{ 1.5 }} {{ 1e3 }} {{ 0x1F }} {{ 0o17 }} {{ 0b101 }} {{ 1_000 }} {{ 017 }}'),
    ).toBe('42 -3 1.5 1000 31 15 5 1000 15');
    expect(render('{{ true }} {{ false }}')).toBe('true false');
    expect(render('{{ print nil }}')).toBe('<nil>');
  });
});

describe('renderTemplate: pipelines and variables', () => {
  it('pipes the previous value in as the last argument', () => {
    expect(render('{{ .name | upper }}')).toBe('WEB');
    expect(render('{{ .name | printf "%s-%s" "x" }}')).toBe('x-web');
    expect(render('{{ .name | upper | printf "[%s]" }}')).toBe('[WEB]');
    expect(render('{{ .missing | default "n/a" }}')).toBe('n/a');
  });

  it('evaluates parenthesised pipelines and fields of their results', () => {
    expect(render('{{ printf "%d items" (len .json.items) }}')).toBe('3 items');
    expect(render('{{ (index .json.items 2).name }}')).toBe('c');
    expect(render('{{ (fromJson "{\\"a\\": {\\"b\\": 7}}").a.b }}')).toBe('7');
  });

  it('calls a function named as an argument with no arguments', () => {
    expect(render('{{ date "2006" now }}')).toBe(String(new Date().getUTCFullYear()));
  });

  it('declares, reads and assigns variables; $ is the data', () => {
    expect(render('{{ $x := .name }}{{ $x }}')).toBe('web');
    expect(render('{{ $x := 1 }}{{ $x = 2 }}{{ $x }}')).toBe('2');
    expect(render('{{ range .json.items }}{{ $.name }}{{ end }}')).toBe('webwebweb');
    expect(render('{{ $j := .json }}{{ $j.status }} {{ $.json.status }}')).toBe('ok ok');
    expect(render('{{ $n := 0 }}{{ range .json.items }}{{ $n = add $n .n }}{{ end }}{{ $n }}')).toBe('6');
  });

  it('scopes variables to the block that declares them', () => {
    expect(templateError('{{ if true }}{{ $x := 1 }}{{ end }}{{ $x }}').message).toMatch(/undefined variable "\$x"/);
    expect(templateError('{{ $y = 1 }}').message).toMatch(/undefined variable "\$y"/);
  });
});

describe('renderTemplate: if / else if / else', () => {
  const tpl =
    '{{if eq .code 200}}ok{{else if eq .code 404}}not found{{else if ge .code 500}}server{{else}}other{{end}}';

  it('takes the first branch whose pipeline is true', () => {
    expect(render(tpl, { code: 200 })).toBe('ok');
    expect(render(tpl, { code: 404 })).toBe('not found');
    expect(render(tpl, { code: 503 })).toBe('server');
    expect(render(tpl, { code: 302 })).toBe('other');
  });

  it('uses Go truth: false, 0, "", nil and empty collections are false', () => {
    const truth = '{{if .}}T{{else}}F{{end}}';
    for (const falsy of [false, 0, '', null, [], {}]) expect(render(truth, falsy)).toBe('F');
    for (const truthy of [true, 1, 'x', [0], { a: 0 }]) expect(render(truth, truthy)).toBe('T');
    expect(render('{{if .missing}}T{{else}}F{{end}}')).toBe('F');
  });

  it('short-circuits and / or and returns the deciding operand', () => {
    expect(render('{{ and 1 "x" }}|{{ and 1 0 "never" }}|{{ or 0 "" "y" }}|{{ or 0 "" }}')).toBe('x|0|y|');
    // The right operand is not evaluated when the left decides: no index-out-of-range error.
    expect(render('{{ if and (gt (len .json.empty) 0) (index .json.empty 0) }}x{{ else }}empty{{ end }}')).toBe(
      'empty',
    );
    expect(render('{{ if or (eq .code 200) (index .json.empty 5) }}fast{{ end }}')).toBe('fast');
    expect(render('{{ if not .json.empty }}none{{ end }}')).toBe('none');
  });
});

describe('renderTemplate: range', () => {
  it('iterates lists with dot as the element, and with $i, $e', () => {
    expect(render('{{range .json.items}}{{.name}},{{end}}')).toBe('a,b,c,');
    expect(render('{{range $i, $e := .json.items}}{{$i}}={{$e.name}} {{end}}')).toBe('0=a 1=b 2=c ');
    expect(render('{{range $e := .json.items}}{{$e.n}}{{end}}')).toBe('123');
  });

  it('iterates maps in sorted key order', () => {
    expect(render('{{range $k, $v := .labels}}{{$k}}={{$v}};{{end}}')).toBe('app=api;zone=eu;');
    expect(render('{{range .labels}}{{.}} {{end}}')).toBe('api eu ');
  });

  it('iterates integers like Go 1.22', () => {
    expect(render('{{range 3}}{{.}}{{end}}')).toBe('012');
    expect(render('{{range $i := 2}}[{{$i}}]{{end}}')).toBe('[0][1]');
  });

  it('runs else for empty or missing collections', () => {
    expect(render('{{range .json.empty}}x{{else}}none{{end}}')).toBe('none');
    expect(render('{{range .missing}}x{{else}}none{{end}}')).toBe('none');
  });

  it('supports break and continue', () => {
    expect(render('{{range .json.items}}{{if eq .name "b"}}{{break}}{{end}}{{.name}}{{end}}')).toBe('a');
    expect(render('{{range .json.items}}{{if not .ok}}{{continue}}{{end}}{{.name}}{{end}}')).toBe('ac');
    expect(templateError('{{break}}').message).toMatch(/\{\{break\}\} outside \{\{range\}\}/);
  });

  it('refuses to range over scalars', () => {
    expect(templateError('{{range .name}}x{{end}}').message).toMatch(/range can't iterate over web/);
  });
});

describe('renderTemplate: with', () => {
  it('sets dot to the value when it is true, else runs else / else with', () => {
    expect(render('{{with .json}}{{.status}}{{end}}')).toBe('ok');
    expect(render('{{with .missing}}x{{else}}fallback{{end}}')).toBe('fallback');
    expect(render('{{with .missing}}x{{else with .labels}}{{.zone}}{{end}}')).toBe('eu');
    expect(render('{{with $s := .json.status}}{{$s}}!{{end}}')).toBe('ok!');
  });
});

describe('renderTemplate: define, template, block', () => {
  it('calls named templates with a new dot', () => {
    expect(render('{{define "item"}}<{{.name}}>{{end}}{{range .json.items}}{{template "item" .}}{{end}}')).toBe(
      '<a><b><c>',
    );
    expect(render('{{define "x"}}[{{.}}]{{end}}{{template "x"}}')).toBe('[<no value>]');
    expect(render('{{block "greet" .name}}hi {{.}}{{end}}')).toBe('hi web');
  });

  it('stops runaway recursion and unknown templates', () => {
    expect(templateError('{{define "r"}}{{template "r" .}}{{end}}{{template "r" .}}').message).toMatch(
      /nest deeper than 100/,
    );
    expect(templateError('{{template "nope"}}').message).toMatch(/template "nope" not defined/);
  });
});

describe('renderTemplate: whitespace and comments', () => {
  it('trims whitespace with {{- and -}}', () => {
    expect(render('a  {{- .name -}}  b')).toBe('awebb');
    expect(render('a \n {{- .name }} \n b')).toBe('aweb \n b');
    expect(render('a {{ .name -}} \n\t b')).toBe('a webb');
    expect(render('<ul>\n{{- range .json.items }}\n  <li>{{ .name }}</li>\n{{- end }}\n</ul>')).toBe(
      '<ul>\n  <li>a</li>\n  <li>b</li>\n  <li>c</li>\n</ul>',
    );
  });

  it('keeps {{-3}} a negative number (the marker needs a space)', () => {
    expect(render('x{{-3}}')).toBe('x-3');
  });

  it('drops comments, trimming around them when asked', () => {
    expect(render('a{{/* note */}}b')).toBe('ab');
    expect(render('a {{- /* note */ -}} b')).toBe('ab');
    expect(templateError('{{/* open').message).toMatch(/unclosed comment/);
    expect(templateError('{{/* c */ .x}}').message).toMatch(/comment ends before closing delimiter/);
  });

  it('allows actions to span lines', () => {
    expect(render('{{ printf "%s-%d"\n   .name\n   .code }}')).toBe('web-200');
  });
});

describe('renderTemplate: errors', () => {
  it('reports syntax errors with line, column and the offending line', () => {
    const error = templateError('line one\n  {{ if .code }}ok');
    expect(error.message).toBe(
      'Template syntax error at line 2, column 3: unexpected EOF: {{if}} has no matching {{end}}\n    {{ if .code }}ok\n    ^',
    );
    expect(error.position).toEqual({ offset: 11, line: 2, column: 3 });
    expect(error.language).toBe('template');
  });

  it('names unknown functions, stray ends and bad tokens', () => {
    expect(templateError('{{ .code | nope }}').message).toMatch(
      /^Template syntax error at line 1, column 12: function "nope" not defined/,
    );
    expect(templateError('x{{end}}').message).toMatch(/unexpected \{\{end\}\}/);
    expect(templateError('{{ if }}x{{ end }}').message).toMatch(/missing value for if/);
    expect(templateError('{{ .x').message).toMatch(/unclosed action/);
    expect(templateError('{{ "abc }}').message).toMatch(/unterminated quoted string/);
    expect(templateError('{{ 3x }}').message).toMatch(/bad number syntax/);
    expect(templateError('{{ .a | .b }}').message).toMatch(/non executable command in pipeline stage 2/);
    expect(templateError('{{ .name 1 }}').message).toMatch(/can't give argument to non-function \.name/);
    expect(templateError('{{ (upper .name }}').message).toMatch(/unclosed left paren/);
    expect(templateError('{{ if .a }}x{{ else }}y{{ else }}z{{ end }}').message).toMatch(
      /expected \{\{end\}\}; found \{\{else\}\}/,
    );
    expect(templateError('{{ # }}').message).toMatch(/unexpected "#" in action/);
  });

  it('reports execution errors at the failing call', () => {
    const error = templateError('{{ .name }} {{ index .json.items 5 }}');
    expect(error.message).toBe(
      'Template error at line 1, column 16: error calling index: index out of range: 5\n  {{ .name }} {{ index .json.items 5 }}\n                 ^',
    );
    expect(templateError('{{ lt .name 3 }}').message).toMatch(
      /error calling lt: lt: incompatible types for comparison \(string and int\)/,
    );
    expect(templateError('{{ upper }}').message).toMatch(/wrong number of args for upper: want 1 got 0/);
  });
});

describe('renderTemplate: limits and caching', () => {
  it('stops runaway templates by steps and by output size', () => {
    const steps = templateError('{{range 1000}}{{range 1000}}{{range 10}}x{{end}}{{end}}{{end}}');
    expect(steps.message).toMatch(new RegExp(`template stopped after ${TEMPLATE_MAX_STEPS} steps`));
    const output = templateError('{{range 2000}}{{ $.big }}{{end}}', { big: 'x'.repeat(10_000) });
    expect(output.message).toMatch(new RegExp(`template output exceeds ${TEMPLATE_MAX_OUTPUT} characters`));
    expect(templateError('{{ range 1e9 }}{{ end }}').message).toMatch(/exceeds the step limit/);
  });

  it('refuses over-long templates', () => {
    expect(templateError('x'.repeat(TEMPLATE_MAX_LENGTH + 1)).message).toMatch(/Template is too long/);
  });

  it('caches parsed templates by source text', () => {
    const tpl = `{{ .name }} ${Math.random()}`;
    expect(parseTemplate(tpl)).toBe(parseTemplate(tpl));
  });

  it('renders the same cached template with different data', () => {
    const tpl = '{{ .v }}';
    expect(render(tpl, { v: 1 })).toBe('1');
    expect(render(tpl, { v: 2 })).toBe('2');
  });
});
