import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { evaluateCel } from './cel.js';
import { durationFromMs } from './duration.js';

const ev = (expr: string, vars: Record<string, unknown> = {}) => evaluateCel(expr, vars);

describe('CEL JSON and YAML', () => {
  it('toJSON, fromJSON, .JSON(), .JSONArray(), toJSONPretty', () => {
    expect(ev("{'name': 'John'}.toJSON()")).toBe('{"name":"John"}');
    expect(ev('toJSON([1, "a"])')).toBe('[1,"a"]');
    expect(ev('fromJSON(\'{"a": [1, 2]}\').a[1]')).toBe(2);
    expect(ev('\'{"name": "Alice"}\'.JSON().name')).toBe('Alice');
    expect(ev('\'[{"name": "Alice"}]\'.JSONArray()[0].name')).toBe('Alice');
    expect(() => ev("'{}'.JSONArray()")).toThrow(/not an array/);
    expect(ev("{'a': 1}.toJSONPretty()")).toBe('{\n  "a": 1\n}');
    expect(ev("{'a': 1}.toJSONPretty('\\t')")).toBe('{\n\t"a": 1\n}');
    expect(ev("toJSON({'d': d})", { d: durationFromMs(1500) })).toBe('{"d":"1.5s"}');
  });

  it('YAML, fromYAML, YAMLArray, toYAML', () => {
    expect(ev('YAML("a: 1\\nb: [x, y]").b[1]')).toBe('y');
    expect(ev('fromYAML("k: v").k')).toBe('v');
    expect(ev('YAMLArray("- 1\\n- 2").size()')).toBe(2);
    expect(ev("toYAML({'a': 1, 'b': ['x']})")).toBe('a: 1\nb:\n  - x\n');
    expect(ev("{'a': 1}.toYAML()")).toBe('a: 1\n');
    expect(() => ev('fromYAML("a: [")')).toThrow(/invalid YAML/);
  });

  it('jsonpath on a value or on JSON text', () => {
    expect(ev('jsonpath("$.name", {"name": "John", "age": 30})')).toBe('John');
    expect(ev('jsonpath("$.items[0]", {"items": ["apple", "banana"]})')).toBe('apple');
    expect(ev('jsonpath("$.user.email", \'{"user": {"email": "j@example.com"}}\')')).toBe('j@example.com');
    expect(ev('jsonpath("$.items[*].n", json)', { json: { items: [{ n: 1 }, { n: 2 }] } })).toEqual([1, 2]);
    expect(ev('jsonpath("$.missing", {"a": 1})')).toBeNull();
  });
});

describe('CEL encodings and hashes', () => {
  it('base64.encode and base64.decode', () => {
    expect(ev('base64.encode("hello")')).toBe('aGVsbG8=');
    expect(ev('base64.encode(b"hello")')).toBe('aGVsbG8=');
    expect(ev('string(base64.decode("aGVsbG8="))')).toBe('hello');
    expect(() => ev('base64.decode("not base64!")')).toThrow(/not base64/);
  });

  it('urlencode and urldecode', () => {
    expect(ev('urlencode("hello world ?")')).toBe('hello+world+%3F');
    expect(ev('urldecode("hello+world+%3F")')).toBe('hello world ?');
  });

  it('crypto.SHA1/224/256/384/512 and the *Bytes forms', () => {
    const hex = (algo: string) => createHash(algo).update('hello world').digest('hex');
    expect(ev('crypto.SHA1("hello")')).toBe('aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d');
    expect(ev('crypto.SHA224("hello world")')).toBe(hex('sha224'));
    expect(ev('crypto.SHA256("hello world")')).toBe(hex('sha256'));
    expect(ev('crypto.SHA384("hello world")')).toBe(hex('sha384'));
    expect(ev('crypto.SHA512("hello world")')).toBe(hex('sha512'));
    expect(ev('crypto.SHA512_256("hello world")')).toBe(hex('sha512-256'));
    expect(ev('size(crypto.SHA256Bytes("x"))')).toBe(32);
  });
});

describe('CEL uuid.* and random.*', () => {
  it('uuid.V4, IsValid, Nil, Parse', () => {
    expect(ev('uuid.IsValid(uuid.V4())')).toBe(true);
    expect(ev('uuid.V4() != uuid.V4()')).toBe(true);
    expect(ev('uuid.IsValid("nope")')).toBe(false);
    expect(ev('uuid.Nil()')).toBe('00000000-0000-0000-0000-000000000000');
    expect(ev('uuid.Parse("{6BA7B810-9DAD-11D1-80B4-00C04FD430C8}")')).toBe('6ba7b810-9dad-11d1-80b4-00c04fd430c8');
  });

  it('random strings, items and numbers stay in their ranges', () => {
    expect(ev('random.ASCII(8)')).toMatch(/^[ -~]{8}$/);
    expect(ev('random.Alpha(6)')).toMatch(/^[A-Za-z]{6}$/);
    expect(ev('random.AlphaNum(6)')).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(ev('random.String(5)')).toHaveLength(5);
    expect(ev('random.String(20, ["a", "d"])')).toMatch(/^[a-d]{20}$/);
    expect(['a', 'b']).toContain(ev('random.Item(["a", "b"])'));
    const n = ev('random.Number(1, 3)') as number;
    expect(n >= 1 && n <= 3 && Number.isInteger(n)).toBe(true);
    const f = ev('random.Float(1, 2)') as number;
    expect(f >= 1 && f <= 2).toBe(true);
    expect(() => ev('random.Item([])')).toThrow(/empty/);
  });
});

describe('CEL regexp.* (input last, Go syntax)', () => {
  it('Find, FindAll, Match, QuoteMeta', () => {
    expect(ev('regexp.Find("\\\\d+", "abc123def")')).toBe('123');
    expect(ev('regexp.Find("xyz", "hello")')).toBe('');
    expect(ev('regexp.FindAll("a.", -1, "banana")')).toEqual(['an', 'an']);
    expect(ev('regexp.FindAll("\\\\d", 2, "12345")')).toEqual(['1', '2']);
    expect(ev('regexp.FindAll("\\\\d", "a1b2")')).toEqual(['1', '2']);
    expect(ev('regexp.Match("^h.llo", "hello")')).toBe(true);
    expect(ev('regexp.Match("(?i)^HELLO", "hello")')).toBe(true);
    expect(ev('regexp.QuoteMeta("a.b")')).toBe('a\\.b');
    expect(() => ev('regexp.Match("(", "x")')).toThrow(/invalid regular expression/);
  });

  it('Replace (with $1 and ${1}), ReplaceLiteral, Split', () => {
    expect(ev('regexp.Replace("\\\\d+", "num", "abc123")')).toBe('abcnum');
    expect(ev('regexp.Replace("(\\\\w+)@(\\\\w+)", "${2}:$1", "me@host")')).toBe('host:me');
    expect(ev('regexp.ReplaceLiteral("a.", "$1", "a.b")')).toBe('$1b');
    expect(ev('regexp.Split("\\\\s", 2, "apple pie is delicious")')).toEqual(['apple', 'pie is delicious']);
    expect(ev('regexp.Split("z", -1, "hello")')).toEqual(['hello']);
    expect(ev('regexp.Split("a", 0, "banana")')).toEqual([]);
  });
});

describe('CEL filepath.*', () => {
  it('Base, Clean, Dir, Ext, IsAbs, Join, Match, Rel, Split', () => {
    expect(ev('filepath.Base("/home/user/projects/gencel")')).toBe('gencel');
    expect(ev('filepath.Clean("/foo/bar/../baz/")')).toBe('/foo/baz');
    expect(ev('filepath.Dir("/home/user/x")')).toBe('/home/user');
    expect(ev('filepath.Ext("/opt/image.jpg")')).toBe('.jpg');
    expect(ev('filepath.IsAbs("/a") && !filepath.IsAbs("a")')).toBe(true);
    expect(ev('filepath.Join(["/home/user", "projects", "gencel"])')).toBe('/home/user/projects/gencel');
    expect(ev('filepath.Match("*.txt", "foo.txt") && !filepath.Match("*.txt", "foo.json")')).toBe(true);
    expect(ev('filepath.Match("*.txt", "a/foo.txt")')).toBe(false);
    expect(ev('filepath.Rel("/foo/bar", "/foo/bar/baz")')).toBe('baz');
    expect(ev('filepath.Split("/foo/bar/baz")')).toEqual(['/foo/bar/', 'baz']);
    expect(ev('filepath.ToSlash("a/b") + filepath.FromSlash("/c")')).toBe('a/b/c');
  });
});
