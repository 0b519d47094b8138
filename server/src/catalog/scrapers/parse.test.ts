// Unit tests of the file formats config-db reads: properties (Java and postgresql.conf style),
// json, yaml, none (JSON then YAML), and any other format kept as {format, content}.
import { describe, expect, it } from 'vitest';
import { parseText } from './parse.js';
import { parseProperties } from './properties.js';

describe('format: properties', () => {
  it('reads a postgresql.conf as config-db does: inline comments cut, quotes kept, = optional', () => {
    const conf = [
      '# -----------------------------',
      '# PostgreSQL configuration file',
      '#   name = value',
      '',
      "data_directory = '/var/lib/postgresql/data'\t\t# use data in another directory",
      '\t\t\t\t\t# (change requires restart)',
      "listen_addresses = '*'\t\t# what IP address(es) to listen on;",
      '#port = 5432\t\t\t\t# (change requires restart)',
      'max_connections 100',
      'shared_buffers = 128MB\t\t\t# min 128kB',
      'max_slot_wal_keep_size = 1024   # in megabytes; -1 disables',
      "log_line_prefix = '%h %m [%p] %q%u@%d '\t\t# special values:",
      "ssl_ciphers = 'HIGH:MEDIUM:+3DES:!aNULL' # allowed SSL ciphers",
      'search_path = \'"$user", public # not a comment\'',
      "cron.database_name = 'postgres'",
      "pgsodium.getkey_script= '/usr/lib/getkey.sh'",
      'ssl = off',
      "ssl_ca_file = ''",
      'log_file_mode = 0640',
    ].join('\n');
    expect(parseProperties(conf)).toEqual({
      data_directory: "'/var/lib/postgresql/data'",
      listen_addresses: "'*'",
      max_connections: '100',
      shared_buffers: '128MB',
      max_slot_wal_keep_size: '1024',
      log_line_prefix: "'%h %m [%p] %q%u@%d '",
      ssl_ciphers: "'HIGH:MEDIUM:+3DES:!aNULL'",
      search_path: '\'"$user", public # not a comment\'',
      'cron.database_name': "'postgres'",
      'pgsodium.getkey_script': "'/usr/lib/getkey.sh'",
      ssl: 'off',
      ssl_ca_file: "''",
      log_file_mode: '0640',
    });
  });

  it('reads Java properties: separators, ! comments, continuations, escapes, repeats', () => {
    const text = [
      '! a Java comment',
      '   # an indented comment',
      'app.name=shop',
      'app.port: 8080',
      'app.title   Shop front',
      'fruits = apple, banana, \\',
      '         pear, \\',
      '         cherry',
      'path = c:\\\\data\\\\shop',
      'key\\ with\\ spaces = spaced',
      'colon\\:key = colon',
      'tab = a\\tb',
      'unicode = caf\\u00e9',
      'lonely',
      'app.name = shop2',
      'trailing.backslashes = ends\\\\',
      'next = line',
    ].join('\r\n');
    expect(parseProperties(text)).toEqual({
      'app.name': 'shop2',
      'app.port': '8080',
      'app.title': 'Shop front',
      fruits: 'apple, banana, pear, cherry',
      path: 'c:\\data\\shop',
      'key with spaces': 'spaced',
      'colon:key': 'colon',
      tab: 'a',
      unicode: 'café',
      lonely: '',
      'trailing.backslashes': 'ends\\',
      next: 'line',
    });
  });

  it('keeps __proto__ an ordinary key and ${} references as written', () => {
    const out = parseProperties('__proto__ = x\nurl = http://${host}:80');
    expect(Object.keys(out)).toEqual(['__proto__', 'url']);
    expect(out.url).toBe('http://${host}:80');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('is one document through parseText', () => {
    expect(parseText('a = 1\nb: two', 'properties').docs).toEqual([{ a: '1', b: 'two' }]);
  });
});

describe('parseText formats', () => {
  it('json, yaml (many documents), and none: JSON before YAML', () => {
    expect(parseText('{"a": [1, 2]}', 'json').docs).toEqual([{ a: [1, 2] }]);
    expect(() => parseText('a: 1', 'json')).toThrow(/not valid JSON/);
    expect(parseText('a: 1\n---\nb: 2\n', 'yaml').docs).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseText('a: 1\n', 'YML').docs).toEqual([{ a: 1 }]);
    expect(parseText('[{"id": 1}]').docs).toEqual([[{ id: 1 }]]);
    expect(parseText('name: x\nitems: [1]\n').docs).toEqual([{ name: 'x', items: [1] }]);
    expect(() => parseText('a: [1\n')).toThrow(/not valid YAML/);
  });

  it('keeps any other format as written, as {format, content}', () => {
    expect(parseText('[server]\nport = 1\n', 'toml').docs).toEqual([
      { format: 'toml', content: '[server]\nport = 1\n' },
    ]);
    expect(parseText('hello\n', 'text').docs).toEqual([{ format: 'text', content: 'hello\n' }]);
    expect(parseText('<a/>', 'xml').docs).toEqual([{ format: 'xml', content: '<a/>' }]);
  });
});
