// Unit tests of config-db's transforms on config-db-style inputs (a list of configs with id, name,
// password, secret): javascript, gotemplate, exclude (JSONPath, by type with globs and negations),
// mask (CEL selector over the item, md5sum or a literal), and their apply-time checks.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { extractItems, matchesTypes, md5sum, rootedPath } from './extract.js';
import type { BaseScraperSpec, RawDocument } from './scraper.js';
import { ResourceErrors } from '../resources/yaml.js';
import { entryScriptErrors, scrapeConfigScriptFields, withJavascriptChecked } from './scriptChecks.js';

const configs = () => [
  { name: 'Config1', id: 1, password: 'p1', secret: 'secret_1' },
  { name: 'Config2', id: 2, password: 'p2', secret: 'secret_2' },
];
const doc = (data: unknown): RawDocument => ({ data, source: 'configs.json' });
const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');

async function extract(spec: BaseScraperSpec, data: unknown = configs()) {
  const r = await extractItems(spec, [doc(data)], 'file[0]');
  expect(r.errors).toEqual([]);
  return r.items.map((i) => ({ id: i.externalId, name: i.name, type: i.type, class: i.configClass, config: i.config }));
}

describe('transform.javascript', () => {
  it('gets the whole list as config; the JSON text it returns becomes one item per element', async () => {
    const items = await extract({
      type: 'Config',
      id: '$.id',
      name: '$.name',
      transform: {
        javascript: `for (var i = 0; i < config.length; i++) {\n  config[i].added = "a"\n  config[i].id = String(config[i].id)\n}\nJSON.stringify(config)`,
      },
    });
    expect(items).toEqual([
      {
        id: '1',
        name: 'Config1',
        type: 'Config',
        class: 'Config',
        config: { added: 'a', id: '1', name: 'Config1', password: 'p1', secret: 'secret_1' },
      },
      {
        id: '2',
        name: 'Config2',
        type: 'Config',
        class: 'Config',
        config: { added: 'a', id: '2', name: 'Config2', password: 'p2', secret: 'secret_2' },
      },
    ]);
  });
});

describe('transform.gotemplate', () => {
  it('renders over .config and its JSON output is the item', async () => {
    const items = await extract({
      type: 'MyConfig',
      id: '$.id',
      name: 'scraped',
      transform: {
        gotemplate: `[\n  {\n    {{range $i := .config}}\n      "name-{{.id}}": "hi {{.name}}",\n    {{end}}\n    "id": "1"\n  }\n]`,
      },
    });
    expect(items).toEqual([
      {
        id: '1',
        name: 'scraped',
        type: 'MyConfig',
        class: 'MyConfig',
        config: { 'name-1': 'hi Config1', 'name-2': 'hi Config2', id: '1' },
      },
    ]);
  });
});

describe('transform.exclude', () => {
  it('removes fields by JSONPath (.x, $.x or x), for all types or only the types listed', async () => {
    const items = await extract({
      type: '$.name',
      id: '$.id',
      name: '$.name',
      class: 'MySecrets',
      transform: {
        javascript: 'for (var i = 0; i < config.length; i++) { config[i].id = String(i + 1) }\nJSON.stringify(config)',
        exclude: [{ jsonpath: '.password' }, { types: ['Config2'], jsonpath: '.secret' }],
      },
    });
    expect(items.map((i) => [i.type, i.class, i.config])).toEqual([
      ['Config1', 'MySecrets', { id: '1', name: 'Config1', secret: 'secret_1' }],
      ['Config2', 'MySecrets', { id: '2', name: 'Config2' }],
    ]);
  });

  it('leaves nested fields of the same name alone (.x is the root field, not a recursive search)', async () => {
    const [item] = await extract(
      { type: 'T', id: 'one', transform: { exclude: ['.password'] } },
      {
        password: 'root',
        db: { password: 'nested' },
      },
    );
    expect(item!.config).toEqual({ db: { password: 'nested' } });
    const [all] = await extract(
      { type: 'T', id: 'one', transform: { exclude: ['$..password'] } },
      {
        password: 'root',
        db: { password: 'nested' },
      },
    );
    expect(all!.config).toEqual({ db: {} });
  });

  it('matches types with wildcards and negations', () => {
    expect(matchesTypes('Kubernetes::Pod', ['Kubernetes::*'])).toBe(true);
    expect(matchesTypes('Kubernetes::Pod', ['!Kubernetes::Pod'])).toBe(false);
    expect(matchesTypes('Kubernetes::Node', ['!Kubernetes::Pod'])).toBe(true);
    expect(matchesTypes('AWS::EC2', ['Kubernetes::*', '*::EC2'])).toBe(true);
    expect(matchesTypes('AWS::S3', ['Kubernetes::*'])).toBe(false);
    expect(rootedPath('.a.b')).toBe('$.a.b');
    expect(rootedPath('a')).toBe('$.a');
    expect(rootedPath('$..a')).toBe('$..a');
  });
});

describe('transform.mask', () => {
  it('replaces fields of the items its CEL selector picks with md5sum or a literal', async () => {
    const items = await extract({
      type: 'Config',
      id: '$.id',
      name: '$.name',
      items: '$[*]',
      transform: {
        mask: [
          { selector: "config.name == 'Config1'", jsonpath: '$.password', value: 'md5sum' },
          { selector: "config.name == 'Config1'", jsonpath: '$.secret', value: '***' },
          { selector: "config_type == 'Config' && name == 'Config2'", jsonpath: '.secret', value: 'hidden' },
        ],
      },
    });
    expect(items.map((i) => i.config)).toEqual([
      { id: 1, name: 'Config1', password: md5('p1'), secret: '***' },
      { id: 2, name: 'Config2', password: 'p2', secret: 'hidden' },
    ]);
    expect(md5('p1')).toBe('ec6ef230f1828039ee794566b9c58adc');
  });

  it('takes a selector that fails on an item (a missing field) as not matching', async () => {
    const [item] = await extract(
      {
        type: 'T',
        id: 'x',
        transform: { mask: [{ selector: 'config.spec.missing == 1', jsonpath: '$.a', value: '***' }] },
      },
      { a: 'kept' },
    );
    expect(item!.config).toEqual({ a: 'kept' });
  });

  it('hashes objects and numbers as config-db does (JSON, keys sorted, indented)', () => {
    expect(md5sum({ b: 1, a: { d: null, c: 'x' } })).toBe(md5('{\n  "a": {\n    "c": "x"\n  },\n  "b": 1\n}'));
    expect(md5sum(5432)).toBe(md5('5432'));
  });
});

describe('apply-time checks', () => {
  const doc = (data: unknown) => ({ data, locate: () => undefined });
  const broken = {
    spec: {
      file: [
        {
          name: '{{ .metadata.name ',
          transform: {
            javascript: 'var a = 1;\nvar b = ;',
            gotemplate: '{{range .config}}\n{{.name}',
            mask: [{ selector: 'config.kind ==', jsonpath: '$.a', value: 'md5sum' }],
            relationship: [{ filter: 'true', name: { expr: 'config.x +' } }],
          },
        },
      ],
    },
  };

  it('finds every script of an entry at its field', () => {
    expect(scrapeConfigScriptFields(doc(broken), ['file']).map((f) => [f.path.join('.'), f.kind])).toEqual([
      ['spec.file.0.name', 'template'],
      ['spec.file.0.transform.javascript', 'javascript'],
      ['spec.file.0.transform.gotemplate', 'template'],
      ['spec.file.0.transform.mask.0.selector', 'expr'],
      ['spec.file.0.transform.relationship.0.filter', 'expr'],
      ['spec.file.0.transform.relationship.0.name.expr', 'expr'],
    ]);
  });

  it('refuses each broken one with the place inside the script; JavaScript compiled, never run', async () => {
    const problems = await withJavascriptChecked(doc(broken), ['file'], () => {
      throw new ResourceErrors(entryScriptErrors(doc(broken), broken.spec.file[0], ['spec', 'file', 0]));
    }).then(
      () => [],
      (e: ResourceErrors) => e.errors.map((x) => x.message),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^spec\.file\[0\]\.name: Template/),
      expect.stringMatching(
        /^spec\.file\[0\]\.transform\.gotemplate: Template.*\(at line 2, column \d+ of the template\)/,
      ),
      expect.stringMatching(/^spec\.file\[0\]\.transform\.mask\[0\]\.selector: CEL/),
      expect.stringMatching(/^spec\.file\[0\]\.transform\.relationship\[0\]\.name\.expr: CEL/),
      expect.stringMatching(
        /^spec\.file\[0\]\.transform\.javascript: JavaScript.*\(at line 2, column 9 of the javascript\)/,
      ),
    ]);
    // A script that would loop forever only compiles; a top-level return is accepted.
    const fine = { spec: { file: [{ transform: { javascript: 'while (true) {}\nreturn 1' } }] } };
    await expect(withJavascriptChecked(doc(fine), ['file'], () => 'ok')).resolves.toBe('ok');
  });
});
