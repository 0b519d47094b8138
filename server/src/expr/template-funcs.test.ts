import { describe, expect, it } from 'vitest';
import { durationFromMs } from './duration.js';
import { renderTemplate } from './template.js';
import { TEMPLATE_ALIASES, TEMPLATE_FUNCTIONS } from './template-funcs.js';

const data = {
  name: 'web server',
  code: 200,
  n: 7,
  f: 2.5,
  items: ['b', 'a', 'c', 'a'],
  nums: [3, 1, 2],
  labels: { zone: 'eu', app: 'api' },
  json: '{"a": {"b": [1, 2]}}',
  at: new Date('2024-03-05T07:08:09.120Z'),
  d: durationFromMs(93_784_000),
  empty: '',
  zero: 0,
};

/** [function, template, expected output] — at least one case per function, in template form. */
const CASES: Array<[string, string, string]> = [
  // Go built-ins
  ['not', '{{ not .empty }} {{ not .code }}', 'true false'],
  [
    'eq',
    '{{ eq .code 200 }} {{ eq .code 1 2 200 }} {{ eq .name "x" }} {{ eq .code "200" }} {{ eq .missing nil }}',
    'true true false false true',
  ],
  ['ne', '{{ ne .code 200 }} {{ ne .name "x" }}', 'false true'],
  ['lt', '{{ lt 1 2 }} {{ lt "b" "a" }} {{ lt .d .d }}', 'true false false'],
  ['le', '{{ le 2 2 }} {{ le 3 2 }}', 'true false'],
  ['gt', '{{ gt .code 199 }} {{ gt 1.5 2 }}', 'true false'],
  ['ge', '{{ ge .code 200 }} {{ ge "a" "b" }}', 'true false'],
  ['len', '{{ len .items }} {{ len .labels }} {{ len "héllo" }} {{ len .missing }}', '4 2 6 0'],
  [
    'index',
    '{{ index .items 1 }} {{ index .labels "zone" }} {{ index (fromJson .json) "a" "b" 1 }} {{ index .missing 3 }}',
    'a eu 2 <no value>',
  ],
  ['slice', '{{ slice .items 1 3 }} {{ slice "abcdef" 2 }} {{ slice "x" "y" }}', '[a c] cdef [x y]'],
  ['print', '{{ print "a" 1 2 "b" }}', 'a1 2b'],
  ['println', '{{ println "a" 1 }}', 'a 1\n'],
  [
    'printf',
    '{{ printf "%s=%d (%.2f) %v %q %5s|%-4d|%05.1f %t %x %%" "k" 42 3.14159 .nums "q" "r" 7 2.5 true 255 }}',
    'k=42 (3.14) [3 1 2] "q"     r|7   |002.5 true ff %',
  ],
  ['html', '{{ html "<a href=\'x\'>&</a>" }}', '&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;'],
  ['js', '{{ js "it\'s <b>" }}', "it\\'s \\u003Cb\\u003E"],
  ['urlquery', '{{ urlquery "a b&c=d" }}', 'a+b%26c%3Dd'],
  // strings
  ['upper', '{{ .name | upper }}', 'WEB SERVER'],
  ['lower', '{{ "HeLLo" | lower }}', 'hello'],
  ['title', '{{ .name | title }}', 'Web Server'],
  ['trim', '{{ "  x y \\n" | trim }}', 'x y'],
  ['trimAll', '{{ trimAll "-_" "_-x-_" }}', 'x'],
  ['trimPrefix', '{{ .name | trimPrefix "web " }}|{{ "abc" | trimPrefix "x" }}', 'server|abc'],
  ['trimSuffix', '{{ .name | trimSuffix " server" }}', 'web'],
  ['replace', '{{ .name | replace " " "-" }}', 'web-server'],
  ['contains', '{{ .name | contains "serv" }} {{ contains "x" .name }}', 'true false'],
  ['hasPrefix', '{{ .name | hasPrefix "web" }} {{ hasPrefix "server" .name }}', 'true false'],
  ['hasSuffix', '{{ .name | hasSuffix "server" }}', 'true'],
  ['split', '{{ split "," "a,b,c" }} {{ (split "," "a,b,c")._1 }}', '[a b c] b'],
  ['splitList', '{{ splitList ":" "x:y" }}', '[x y]'],
  ['join', '{{ .items | join ", " }} | {{ join .nums "-" }}', 'b, a, c, a | 3-1-2'],
  ['repeat', '{{ "ab" | repeat 3 }}', 'ababab'],
  ['substr', '{{ substr 0 3 .name }} {{ substr 4 100 .name }}', 'web server'],
  ['trunc', '{{ trunc 3 .name }} {{ trunc -3 .name }}', 'web ver'],
  ['quote', '{{ quote .name "x\\"y" }}', '"web server" "x\\"y"'],
  ['squote', '{{ squote .name }}', "'web server'"],
  ['cat', '{{ cat "a" 1 .missing "b" }}', 'a 1 b'],
  ['indent', '{{ indent 2 "a\\nb" }}', '  a\n  b'],
  ['nindent', '{{ nindent 2 "a" }}', '\n  a'],
  ['nospace', '{{ nospace " a b\\tc " }}', 'abc'],
  ['toString', '{{ toString 42 }} {{ toString .nums }}', '42 [3 1 2]'],
  // defaults and logic
  [
    'default',
    '{{ .missing | default "n/a" }} {{ .empty | default "e" }} {{ .zero | default 9 }} {{ .name | default "x" }}',
    'n/a e 9 web server',
  ],
  ['empty', '{{ empty .empty }} {{ empty .nums }} {{ empty .missing }}', 'true false true'],
  ['coalesce', '{{ coalesce .missing .empty "third" "fourth" }}', 'third'],
  ['ternary', '{{ ternary "yes" "no" true }} {{ eq .code 500 | ternary "down" "up" }}', 'yes up'],
  // encoding
  ['toJson', '{{ .labels | toJson }} {{ toJson .d }}', '{"zone":"eu","app":"api"} "26h3m4s"'],
  ['toJSON', '{{ toJSON .nums }}', '[3,1,2]'],
  ['toPrettyJson', '{{ toPrettyJson .nums }}', '[\n  3,\n  1,\n  2\n]'],
  ['toJSONPretty', '{{ toJSONPretty "\\t" .labels }}', '{\n\t"zone": "eu",\n\t"app": "api"\n}'],
  ['fromJson', '{{ (fromJson .json).a.b }}', '[1 2]'],
  ['fromJSON', '{{ (fromJSON "[1,2]") }}', '[1 2]'],
  ['b64enc', '{{ b64enc "hello" }}', 'aGVsbG8='],
  ['b64dec', '{{ b64dec "aGVsbG8=" }}', 'hello'],
  ['sha256sum', '{{ sha256sum "hello" }}', '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'],
  // math
  ['add', '{{ add 1 2 3 }} {{ add .f 1 }}', '6 3.5'],
  ['add1', '{{ add1 .n }}', '8'],
  ['sub', '{{ sub .code 1 }}', '199'],
  ['mul', '{{ mul 2 3 4 }}', '24'],
  ['div', '{{ div 7 2 }} {{ div -7 2 }}', '3 -3'],
  ['mod', '{{ mod 7 3 }}', '1'],
  ['addf', '{{ addf 1.5 2 }}', '3.5'],
  ['subf', '{{ subf 1 0.25 }}', '0.75'],
  ['mulf', '{{ mulf 1.5 3 }}', '4.5'],
  ['divf', '{{ divf 7 2 }}', '3.5'],
  ['max', '{{ max 3 9 2 }}', '9'],
  ['min', '{{ min 3 9 2 }}', '2'],
  ['floor', '{{ floor 2.7 }}', '2'],
  ['ceil', '{{ ceil 2.1 }}', '3'],
  ['round', '{{ round 2.5 }} {{ round -2.5 }} {{ round 3.14159 2 }}', '3 -3 3.14'],
  ['abs', '{{ abs -4.5 }}', '4.5'],
  ['int', '{{ int 3.9 }} {{ int "42" }}', '3 42'],
  ['int64', '{{ int64 -3.9 }}', '-3'],
  ['float64', '{{ float64 "1.5" }}', '1.5'],
  ['atoi', '{{ atoi "12" }} {{ atoi "x" }}', '12 0'],
  // lists and maps
  ['list', '{{ list 1 "a" .code }}', '[1 a 200]'],
  ['dict', '{{ dict "a" 1 "b" .code }} {{ (dict "k" "v").k }} {{ dict "odd" }}', 'map[a:1 b:200] v map[odd:]'],
  ['get', '{{ get .labels "zone" }}|{{ get .labels "nope" }}', 'eu|'],
  ['hasKey', '{{ hasKey .labels "app" }} {{ hasKey .labels "x" }}', 'true false'],
  ['keys', '{{ keys .labels }}', '[app zone]'],
  ['first', '{{ first .items }}', 'b'],
  ['last', '{{ last .items }}', 'a'],
  ['uniq', '{{ uniq .items }}', '[b a c]'],
  ['sortAlpha', '{{ sortAlpha .items }}', '[a a b c]'],
  ['reverse', '{{ reverse .nums }}', '[2 1 3]'],
  // time
  ['now', '{{ lt (now).Unix 0 }} {{ gt (now).Year 2023 }}', 'false true'],
  [
    'date',
    '{{ .at | date "2006-01-02 15:04:05.000 Mon Jan _2 3PM -07:00 MST" }}',
    '2024-03-05 07:08:09.120 Tue Mar  5 7AM +00:00 UTC',
  ],
  ['unixEpoch', '{{ unixEpoch .at }}', '1709622489'],
  ['ago', '{{ ago .at | hasSuffix "s" }}', 'true'],
  ['duration', '{{ duration 95 }} {{ duration "3600" }}', '1m35s 1h0m0s'],
  [
    'humanizeDuration',
    '{{ humanizeDuration .d }}|{{ humanizeDuration 90 }}|{{ humanizeDuration 2.5 }}|{{ humanizeDuration 0.0123 }}|{{ humanizeDuration "36h" }}',
    '1d 2h 3m 4s|1m 30s|2.5s|12.3ms|1d 12h 0m 0s',
  ],
  [
    'humanizeBytes',
    '{{ humanizeBytes 512 }}|{{ humanizeBytes 1536 }}|{{ humanizeBytes 10485760 }}',
    '512 B|1.5 KiB|10 MiB',
  ],
  [
    'humanizeTime',
    '{{ humanizeTime 0 }}|{{ humanizeTime "2999-01-01T00:00:00Z" }}',
    'a long while ago|a long while from now',
  ],
];

describe('template functions', () => {
  it.each(CASES)('%s: %s', (_name, template, expected) => {
    expect(renderTemplate(template, data)).toBe(expected);
  });

  it('has a case for every function that is not an alias', () => {
    const covered = new Set(CASES.map(([name]) => name));
    const missing = [...TEMPLATE_FUNCTIONS.keys()].filter((name) => !covered.has(name) && !TEMPLATE_ALIASES.has(name));
    expect(missing).toEqual([]);
  });

  it('resolves every gomplate-style alias to its function, with the same argument order', () => {
    for (const [alias, target] of TEMPLATE_ALIASES) {
      expect(TEMPLATE_FUNCTIONS.get(alias), alias).toBe(TEMPLATE_FUNCTIONS.get(target));
    }
    expect(renderTemplate('{{ "hello, world" | strings.ToUpper }}', {})).toBe('HELLO, WORLD');
    expect(renderTemplate('{{ "http://x" | strings.HasPrefix "http" }}', {})).toBe('true');
    expect(renderTemplate('{{ "172.21.1.42" | strings.ReplaceAll "." "-" }}', {})).toBe('172-21-1-42');
    expect(renderTemplate('{{ math.Add 1.5 2 3 }} {{ math.Div 3 2 }}', {})).toBe('6.5 1.5');
    expect(renderTemplate('{{ "a,b" | strings.Split "," | conv.Join "+" }}', {})).toBe('a+b');
    expect(renderTemplate('{{ (data.JSON "{\\"x\\": 1}").x | data.ToJSON }}', {})).toBe('1');
  });

  it('explains bad arguments', () => {
    expect(() => renderTemplate('{{ add "x" 1 }}', {})).toThrow(
      /error calling add: add: cannot use string "x" as a number/,
    );
    expect(() => renderTemplate('{{ div 1 0 }}', {})).toThrow(/div: division by zero/);
    expect(() => renderTemplate('{{ fromJson "{" }}', {})).toThrow(/error calling fromJson: invalid JSON/);
    expect(() => renderTemplate('{{ date "2006" "not a date" }}', {})).toThrow(
      /date: cannot use string "not a date" as a time/,
    );
    expect(() => renderTemplate('{{ first 3 }}', {})).toThrow(/first: expected a list, got int/);
    expect(() => renderTemplate('{{ repeat 100000000 "ab" }}', {})).toThrow(/repeat: result longer than/);
    expect(() => renderTemplate('{{ index "abc" 9 }}', {})).toThrow(/index out of range: 9/);
    expect(() => renderTemplate('{{ len 3 }}', {})).toThrow(/len of type int/);
  });
});
