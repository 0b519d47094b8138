import { describe, expect, it } from 'vitest';
import { evaluateCel } from './cel.js';
import { durationFromMs } from './duration.js';
import { humanDuration, humanSize, semverSatisfies } from './celStrings.js';
import { renderTemplate } from './template.js';

const ev = (expr: string, vars: Record<string, unknown> = {}) => evaluateCel(expr, vars);

describe('CEL string methods', () => {
  it('replace, replaceAll, charAt, reverse', () => {
    expect(ev('"hello hello".replace("he", "we")')).toBe('wello wello');
    expect(ev('"hello hello".replace("he", "we", 1)')).toBe('wello hello');
    expect(ev('"hello hello".replace("he", "we", 0)')).toBe('hello hello');
    expect(ev('"I have an apple".replaceAll("apple", "orange")')).toBe('I have an orange');
    expect(ev('"hello".charAt(4)')).toBe('o');
    expect(ev('"hello".charAt(5)')).toBe('');
    expect(() => ev('"hello".charAt(6)')).toThrow(/out of range/);
    expect(ev('"gums".reverse()')).toBe('smug');
  });

  it('format with %s %d %f %x and a dyn list', () => {
    expect(ev('"%s is %d, %.2f, %x %%".format(["x", 42, 1.5, 255])')).toBe('x is 42, 1.50, ff %');
    expect(ev('"%s/%s -> %s".format([m.a, m.b, m.c])', { m: { a: 'ns', b: 'pod', c: true } })).toBe('ns/pod -> true');
    expect(() => ev('"%s %s".format(["a"])')).toThrow(/more verbs/);
  });

  it('case helpers: title, upper/lower, snake/kebab/camel, slug', () => {
    expect(ev('"hello world".title()')).toBe('Hello World');
    expect(ev('"Abc".toUpper() + "Abc".toLower() + "Abc".upper() + "Abc".lower()')).toBe('ABCabcABCabc');
    expect(ev('"HelloWorld".snakeCase()')).toBe('hello_world');
    expect(ev('"Hello Beautiful World!".kebabCase()')).toBe('hello-beautiful-world');
    expect(ev('"hello_world".camelCase()')).toBe('HelloWorld');
    expect(ev('"Hello, World!".slug()')).toBe('hello-world');
  });

  it('trim helpers, repeat, indent, trunc, runeCount, sort', () => {
    expect(ev('"hello world".trimPrefix("hello ")')).toBe('world');
    expect(ev('"hello world".trimSuffix(" world")')).toBe('hello');
    expect(ev('"  x \\n".trimSpace()')).toBe('x');
    expect(ev('"  x ".trim()')).toBe('x');
    expect(ev('"ab".repeat(3)')).toBe('ababab');
    expect(() => ev('"ab".repeat(10000000)')).toThrow(/too long/);
    expect(ev('"a\\nb".indent(2)')).toBe('  a\n  b');
    expect(ev('"hello world".indent(4, "-")')).toBe('----hello world');
    expect(ev('"hello".trunc(3)')).toBe('hel');
    expect(ev('"héllo".runeCount()')).toBe(5);
    expect(ev('"hello".sort()')).toBe('ehllo');
  });

  it('quote, squote, shellQuote, abbrev, wordWrap', () => {
    expect(ev('"a\\"b".quote()')).toBe('"a\\"b"');
    expect(ev('"Hello World".squote()')).toBe("'Hello World'");
    expect(ev(`"it's".shellQuote()`)).toBe(`'it'"'"'s'`);
    expect(ev('"KubernetesPod".abbrev(6)')).toBe('Kub...');
    expect(ev('"KubernetesPod".abbrev(1, 5)')).toBe('Ku...');
    expect(ev('"the quick brown fox".wordWrap(10)')).toBe('the quick\nbrown fox');
  });

  it('keyValToMap and mapToKeyVal', () => {
    expect(ev('keyValToMap("env=prod,region=us-east-1")')).toEqual({ env: 'prod', region: 'us-east-1' });
    expect(ev('{"a": "b", "c": "d"}.mapToKeyVal()')).toBe('a=b,c=d');
    expect(() => ev('keyValToMap("novalue")')).toThrow(/not key=value/);
  });
});

describe('CEL humanize and semver', () => {
  it('HumanDuration: Go form below a day, then days and weeks', () => {
    expect(ev('HumanDuration(duration("90m"))')).toBe('1h30m0s');
    expect(ev('HumanDuration(d)', { d: durationFromMs(26 * 3_600_000 + 60_000) })).toBe('1d2h1m');
    expect(ev('HumanDuration(Duration("10d"))')).toBe('1w3d0h');
    expect(humanDuration(1_500_000)).toBe('1.5ms'); // a number is nanoseconds, as a Go time.Duration
    expect(ev('HumanDuration("2h")')).toBe('2h0m0s');
  });

  it('HumanSize / strings.HumanBytes: 1024-based short units', () => {
    expect(ev('HumanSize(1048576)')).toBe('1M');
    expect(ev('HumanSize(1536)')).toBe('1.5K');
    expect(ev('strings.HumanBytes(0)')).toBe('0B');
    expect(humanSize('512')).toBe('512B');
    expect(humanSize('x')).toBe('NaN');
  });

  it('humanizeDuration, humanizeBytes, humanizeTime', () => {
    expect(ev('humanizeDuration(3661)')).toBe('1h 1m 1s');
    expect(ev('humanizeBytes(1536)')).toBe('1.5 KiB');
    expect(ev('humanizeTime(t)', { t: new Date(Date.now() - 90_000) })).toBe('1 minute ago');
    expect(ev('humanizeTime(t)', { t: new Date(Date.now() - 3 * 86_400_000 - 5000) })).toBe('3 days ago');
    expect(ev('humanizeTime(t)', { t: new Date(Date.now() + 2 * 3_600_000 + 60_000) })).toBe('2 hours from now');
    expect(ev('humanizeTime(timestamp("1900-01-01T00:00:00Z"))')).toBe('a long while ago');
    // The same function in templates (canary-checker's s3 fixture: {{ $f.ModTime | humanizeTime }}).
    expect(renderTemplate('{{ .t | humanizeTime }} {{ conv.ToInt "42" }}', { t: new Date(Date.now() - 10_000) })).toBe(
      '10 seconds ago 42',
    );
  });

  it('Semver and SemverCompare (constraint, version)', () => {
    expect(ev('Semver("v1.2.3-rc.1").minor')).toBe(2);
    expect(ev('Semver("1.2.3").prerelease')).toBe('');
    expect(ev('SemverCompare("1.2.3", "1.2.3")')).toBe(true);
    expect(ev('SemverCompare("1.2.3", "1.2.4")')).toBe(false);
    expect(semverSatisfies('>=1.2.0, <2.0.0', '1.9.9')).toBe(true);
    expect(semverSatisfies('~1.2', '1.3.0')).toBe(false);
    expect(semverSatisfies('^1.2', '1.9.0')).toBe(true);
    expect(semverSatisfies('<1.0.0 || >=3', '3.1.0')).toBe(true);
    expect(() => ev('Semver("banana")')).toThrow(/not a semantic version/);
  });
});

describe('CEL strings.* namespace (gomplate argument order)', () => {
  it('Title, ToUpper, ToLower, TrimSpace, Trim', () => {
    expect(ev('strings.Title("hello world")')).toBe('Hello World');
    expect(ev('strings.ToUpper("a") + strings.ToLower("B")')).toBe('Ab');
    expect(ev('strings.TrimSpace("  a  ")')).toBe('a');
    expect(ev('strings.Trim("--a--", "-")')).toBe('a');
  });

  it('TrimPrefix, TrimSuffix, Contains, HasPrefix, HasSuffix, ReplaceAll, Split, Repeat, Trunc', () => {
    expect(ev('strings.TrimPrefix("ab", "abc")')).toBe('c');
    expect(ev('strings.TrimSuffix("bc", "abc")')).toBe('a');
    expect(ev('strings.Contains("b", "abc") && strings.HasPrefix("a", "abc") && strings.HasSuffix("c", "abc")')).toBe(
      true,
    );
    expect(ev('strings.ReplaceAll("a", "x", "banana")')).toBe('bxnxnx');
    expect(ev('strings.Split(",", "a,b")')).toEqual(['a', 'b']);
    expect(ev('strings.Repeat(2, "ab")')).toBe('abab');
    expect(ev('strings.Trunc(2, "abc")')).toBe('ab');
  });

  it('quote, Quote, Squote, Slug, SnakeCase, KebabCase, CamelCase, RuneCount, HumanDuration, SemverCompare', () => {
    expect(ev('strings.quote("a")')).toBe('"a"');
    expect(ev('strings.Quote(1)')).toBe('"1"');
    expect(ev('strings.Squote("a")')).toBe("'a'");
    expect(ev('strings.Slug("A b")')).toBe('a-b');
    expect(ev('strings.SnakeCase("aB")')).toBe('a_b');
    expect(ev('strings.KebabCase("aB")')).toBe('a-b');
    expect(ev('strings.CamelCase("a b")')).toBe('AB');
    expect(ev('strings.RuneCount("é")')).toBe(1);
    expect(ev('strings.HumanDuration(duration("1s"))')).toBe('1s');
    expect(ev('strings.HumanSize(2048)')).toBe('2K');
    expect(ev('strings.SemverCompare(">1.0", "1.0.1")')).toBe(true);
  });
});
