// Sprig data functions for templates: defaults and logic, encoding (JSON, base64, sha256), math, lists and maps.

import { createHash } from 'node:crypto';
import { isTrue } from './gofmt.js';
import type { TemplateRegistrar } from './template-funcs.js';
import { entriesOf, equal, int, list, num, roundHalfAwayFromZero, str } from './templateFuncsValues.js';
import { toJsonText } from './values.js';

export function registerDataFunctions({ define, alias }: TemplateRegistrar): void {
  // ---------------------------------------------------------------- defaults and logic (sprig)

  define('default', 1, 2, (fallback, ...value) => (value.length > 0 && isTrue(value[0]) ? value[0] : fallback));
  define('empty', 1, 1, (v) => !isTrue(v));
  define('coalesce', 0, Infinity, (...args) => args.find((a) => isTrue(a)));
  define('ternary', 3, 3, (whenTrue, whenFalse, condition) => (isTrue(condition) ? whenTrue : whenFalse));

  // ---------------------------------------------------------------- encoding

  define('toJson', 1, 1, (v) => toJsonText(v));
  alias('toJSON', 'toJson');
  define('toPrettyJson', 1, 2, (...args) => {
    // sprig: toPrettyJson VALUE (two-space indent); gomplate: toJSONPretty INDENT VALUE.
    const [indentText, value] = args.length === 2 ? [str(args[0]), args[1]] : ['  ', args[0]];
    return toJsonText(value, indentText);
  });
  alias('toJSONPretty', 'toPrettyJson');
  define('fromJson', 1, 1, (s) => {
    try {
      return JSON.parse(str(s)) as unknown;
    } catch (error) {
      throw new Error(`invalid JSON: ${(error as Error).message}`);
    }
  });
  alias('fromJSON', 'fromJson');
  define('b64enc', 1, 1, (s) => Buffer.from(str(s), 'utf8').toString('base64'));
  define('b64dec', 1, 1, (s) => Buffer.from(str(s), 'base64').toString('utf8'));
  define('sha256sum', 1, 1, (s) => createHash('sha256').update(str(s)).digest('hex'));

  // ---------------------------------------------------------------- math (sprig)

  define('add', 0, Infinity, (...args) => args.reduce<number>((sum, a) => sum + num(a, 'add'), 0));
  define('add1', 1, 1, (a) => num(a, 'add1') + 1);
  define('sub', 2, 2, (a, b) => num(a, 'sub') - num(b, 'sub'));
  define('mul', 1, Infinity, (...args) => args.reduce<number>((product, a) => product * num(a, 'mul'), 1));
  define('div', 2, 2, (a, b) => {
    const divisor = int(b, 'div');
    if (divisor === 0) throw new Error('div: division by zero');
    return Math.trunc(int(a, 'div') / divisor);
  });
  define('mod', 2, 2, (a, b) => {
    const divisor = int(b, 'mod');
    if (divisor === 0) throw new Error('mod: division by zero');
    return int(a, 'mod') % divisor;
  });
  define('addf', 0, Infinity, (...args) => args.reduce<number>((sum, a) => sum + num(a, 'addf'), 0));
  define('subf', 2, 2, (a, b) => num(a, 'subf') - num(b, 'subf'));
  define('mulf', 1, Infinity, (...args) => args.reduce<number>((product, a) => product * num(a, 'mulf'), 1));
  define('divf', 2, 2, (a, b) => {
    const divisor = num(b, 'divf');
    if (divisor === 0) throw new Error('divf: division by zero');
    return num(a, 'divf') / divisor;
  });
  define('max', 1, Infinity, (...args) => Math.max(...args.map((a) => num(a, 'max'))));
  define('min', 1, Infinity, (...args) => Math.min(...args.map((a) => num(a, 'min'))));
  define('floor', 1, 1, (a) => Math.floor(num(a, 'floor')));
  define('ceil', 1, 1, (a) => Math.ceil(num(a, 'ceil')));
  define('round', 1, 2, (a, places) => {
    const factor = 10 ** (places === undefined ? 0 : int(places, 'round'));
    return roundHalfAwayFromZero(num(a, 'round') * factor) / factor;
  });
  define('abs', 1, 1, (a) => Math.abs(num(a, 'abs')));
  define('int', 1, 1, (a) => int(a, 'int'));
  alias('int64', 'int');
  define('float64', 1, 1, (a) => num(a, 'float64'));
  define('atoi', 1, 1, (s) => {
    const n = Number.parseInt(str(s).trim(), 10);
    return Number.isNaN(n) ? 0 : n;
  });

  // ---------------------------------------------------------------- lists and maps (sprig)

  define('list', 0, Infinity, (...args) => args);
  define('dict', 0, Infinity, (...args) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < args.length; i += 2) out[str(args[i])] = i + 1 < args.length ? args[i + 1] : '';
    return out;
  });
  define('get', 2, 2, (map, key) => {
    const entries = entriesOf(map);
    const found = entries?.find(([k]) => k === str(key));
    return found ? found[1] : '';
  });
  define('hasKey', 2, 2, (map, key) => (entriesOf(map) ?? []).some(([k]) => k === str(key)));
  define('keys', 1, Infinity, (...maps) => maps.flatMap((m) => (entriesOf(m) ?? []).map(([k]) => k)).sort());
  define('first', 1, 1, (l) => list(l, 'first')[0]);
  define('last', 1, 1, (l) => {
    const items = list(l, 'last');
    return items[items.length - 1];
  });
  define('uniq', 1, 1, (l) => {
    const out: unknown[] = [];
    for (const item of list(l, 'uniq')) if (!out.some((o) => equal(o, item))) out.push(item);
    return out;
  });
  define('sortAlpha', 1, 1, (l) =>
    list(l, 'sortAlpha')
      .map((item) => str(item))
      .sort(),
  );
  define('reverse', 1, 1, (l) => [...list(l, 'reverse')].reverse());
}
