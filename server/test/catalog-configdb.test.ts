// config-db compatibility of the catalog: ScrapeConfigs in config-db's own YAML form applied through
// /api/catalog against files the test writes, and the stored config items compared with what
// config-db stores — file formats (properties, json, yaml, others kept as {format, content}) and
// transforms (javascript, gotemplate, exclude, mask) — and broken transforms refused at apply with
// their path, line and column.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

interface ItemRow {
  external_id: string;
  name: string;
  type: string;
  config_class: string;
  config: Record<string, unknown>;
}

const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');

const POSTGRESQL_CONF = [
  '# -----------------------------',
  '# PostgreSQL configuration file',
  '# -----------------------------',
  '#   name = value',
  '# (The "=" is optional.)',
  '',
  "data_directory = '/var/lib/postgresql/data'\t\t# use data in another directory",
  '\t\t\t\t\t# (change requires restart)',
  "listen_addresses = '*'\t\t# what IP address(es) to listen on;",
  '#port = 5432\t\t\t\t# (change requires restart)',
  'shared_buffers = 128MB\t\t\t# min 128kB',
  'max_slot_wal_keep_size = 1024   # in megabytes; -1 disables',
  'wal_level logical',
  "log_line_prefix = '%h %m [%p] %q%u@%d '\t\t# special values:",
  "cron.database_name = 'postgres'",
  "pgsodium.getkey_script= '/usr/lib/postgresql/14/bin/pgsodium_getkey_urandom.sh'",
  '',
].join('\n');

const CONFIGS = [
  { name: 'Config1', id: 1, password: 'p1', secret: 'secret_1' },
  { name: 'Config2', id: 2, password: 'p2', secret: 'secret_2' },
];

describe.each(databaseKinds())('config-db scrape configs on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-configdb-'));
    fs.writeFileSync(path.join(dir, 'postgresql.conf'), POSTGRESQL_CONF);
    fs.writeFileSync(path.join(dir, 'multiple-configs.json'), JSON.stringify(CONFIGS, null, 2));
    fs.writeFileSync(path.join(dir, 'single-config.json'), JSON.stringify(CONFIGS[0], null, 2));
    fs.writeFileSync(path.join(dir, 'app.toml'), '[server]\nport = 8080\n');
    fs.writeFileSync(path.join(dir, 'app.conf'), 'name: shop\nreplicas: 2\n');
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const apply = (yaml: string) =>
    fetch(`${app.url}/api/catalog`, {
      method: 'POST',
      body: yaml,
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
    });

  /** Applies a config-db ScrapeConfig, runs it once and returns its live items. */
  async function scrape(yaml: string): Promise<ItemRow[]> {
    const res = await apply(yaml);
    const body = (await res.json()) as { applied: { id: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    const id = body.applied[0]!.id;
    const run = await fetch(`${app.url}/api/catalog/run/${id}`, { method: 'POST', headers: editor.headers });
    const result = (await run.json()) as { status: string; errors: string[] };
    expect(result, JSON.stringify(result)).toMatchObject({ status: 'SUCCESS', errors: [] });
    const { rows } = await test.db.query<ItemRow>(
      `SELECT external_id, name, type, config_class, config FROM config_items
       WHERE scraper_id = $1 AND deleted_at IS NULL ORDER BY external_id`,
      [id],
    );
    return rows;
  }

  it('format: properties turns a postgresql.conf into an object of its keys', async () => {
    const items = await scrape(`apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: file-postgres-properties-scraper
spec:
  file:
    - format: properties
      type: PostgreSQLProperties
      id: postgresql-properties
      paths:
        - ${dir}/postgresql.conf
`);
    expect(items).toEqual([
      {
        external_id: 'postgresql-properties',
        // config-db leaves the name empty; here it defaults to the file's name.
        name: 'postgresql.conf',
        type: 'PostgreSQLProperties',
        config_class: 'PostgreSQLProperties',
        config: {
          data_directory: "'/var/lib/postgresql/data'",
          listen_addresses: "'*'",
          shared_buffers: '128MB',
          max_slot_wal_keep_size: '1024',
          wal_level: 'logical',
          log_line_prefix: "'%h %m [%p] %q%u@%d '",
          'cron.database_name': "'postgres'",
          'pgsodium.getkey_script': "'/usr/lib/postgresql/14/bin/pgsodium_getkey_urandom.sh'",
        },
      },
    ]);
  });

  it('reads yaml whatever the extension, and keeps other formats as {format, content}', async () => {
    const items = await scrape(`apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: formats
spec:
  file:
    - type: App::Conf
      id: conf
      format: yaml
      paths: [${dir}/app.conf]
    - type: App::Toml
      id: toml
      format: toml
      paths: [${dir}/app.toml]
`);
    expect(items.map((i) => [i.external_id, i.config])).toEqual([
      ['conf', { name: 'shop', replicas: 2 }],
      ['toml', { format: 'toml', content: '[server]\nport = 8080\n' }],
    ]);
  });

  it('transform.javascript: one item per element of the list it returns', async () => {
    const items = await scrape(`apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: file-script-scraper
spec:
  file:
    - type: Config
      id: $.id
      name: $.name
      transform:
        javascript: |+
          for (var i = 0; i < config.length; i++) {
            config[i].added ="a"
            config[i].id = String(config[i].id)
          }
          JSON.stringify(config)
      paths:
        - ${dir}/multiple-configs.json
`);
    expect(items).toEqual([
      {
        external_id: '1',
        name: 'Config1',
        type: 'Config',
        config_class: 'Config',
        config: { added: 'a', id: '1', name: 'Config1', password: 'p1', secret: 'secret_1' },
      },
      {
        external_id: '2',
        name: 'Config2',
        type: 'Config',
        config_class: 'Config',
        config: { added: 'a', id: '2', name: 'Config2', password: 'p2', secret: 'secret_2' },
      },
    ]);
  });

  it('transform.gotemplate: the JSON it renders over .config is the item', async () => {
    const items = await scrape(`apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: file-script-gotemplate-scraper
spec:
  file:
    - type: MyConfig
      id: "$.id"
      name: "scraped"
      transform:
        gotemplate: |+
          [
            {
              {{range $i := .config}}
                "name-{{.id}}": "hi {{.name}}",
              {{end}}
              "id": "1"
            }
          ]
      paths:
        - ${dir}/multiple-configs.json
`);
    expect(items).toEqual([
      {
        external_id: '1',
        name: 'scraped',
        type: 'MyConfig',
        config_class: 'MyConfig',
        config: { 'name-1': 'hi Config1', 'name-2': 'hi Config2', id: '1' },
      },
    ]);
  });

  it('transform.exclude: fields removed for every type or only the types listed', async () => {
    const items = await scrape(`apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: exclude-file-secrets
spec:
  file:
    - type: $.name
      id: $.id
      name: $.name
      class: MySecrets
      transform:
        javascript: |+
          for (var i = 0; i < config.length; i++) {
            config[i].id = String(i + 1)
          }
          JSON.stringify(config)
        exclude:
          - jsonpath: '.password'
          - types:
              - Config2
            jsonpath: '.secret'
      paths:
        - ${dir}/multiple-configs.json
`);
    expect(items.map((i) => [i.external_id, i.type, i.config_class, i.config])).toEqual([
      ['1', 'Config1', 'MySecrets', { id: '1', name: 'Config1', secret: 'secret_1' }],
      ['2', 'Config2', 'MySecrets', { id: '2', name: 'Config2' }],
    ]);
  });

  it('transform.mask: md5sum or a literal in place of the fields, on the items the selector picks', async () => {
    const items = await scrape(`apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: file-mask-scraper
spec:
  file:
    - type: Config
      id: $.id
      name: $.name
      transform:
        mask:
          - selector: config.name == 'Config1'
            jsonpath: $.password
            value: md5sum
          - selector: config.name == 'Config1'
            jsonpath: $.secret
            value: '***'
          - selector: config.name == 'Config9'
            jsonpath: $.name
            value: '***'
      paths:
        - ${dir}/single-config.json
`);
    expect(items).toEqual([
      {
        external_id: '1',
        name: 'Config1',
        type: 'Config',
        config_class: 'Config',
        config: { id: 1, name: 'Config1', password: md5('p1'), secret: '***' },
      },
    ]);
    expect(md5('p1')).toBe('ec6ef230f1828039ee794566b9c58adc');
  });

  it('refuses broken transforms at apply with their path, line and column', async () => {
    const res = await apply(`apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: broken
spec:
  file:
    - type: Config
      id: $.id
      transform:
        javascript: |+
          for (var i = 0; i < config.length; i++ {
          }
        gotemplate: '{{range .config}}{{.name}'
        mask:
          - selector: config.name ==
            jsonpath: $.password
            value: md5sum
      paths: [${dir}/multiple-configs.json]
`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { path: string; line: number; column: number; message: string }[] };
    // Each position is the problem's own place in the YAML: the unclosed `for (` at its `{`, the
    // template's unclosed action, the end of the incomplete selector.
    expect(body.errors.map((e) => [e.path, e.line, e.column])).toEqual([
      ['spec.file[0].transform.javascript', 11, 50],
      ['spec.file[0].transform.gotemplate', 13, 46],
      ['spec.file[0].transform.mask[0].selector', 15, 37],
    ]);
    // The line and column inside each script too.
    expect(body.errors[0]!.message).toMatch(/JavaScript.*\(at line 1, column \d+ of the javascript\)/);
    expect(body.errors[1]!.message).toMatch(/Template.*\(at line 1, column \d+ of the template\)/);
    expect(body.errors[2]!.message).toMatch(/CEL.*\(at line 1, column \d+ of the expression\)/);
  });
});
