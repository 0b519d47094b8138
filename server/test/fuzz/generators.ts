// Request generators for the /api/db fuzz test: (1) grammar-based, mostly valid PostgREST
// requests over the exposed schema, (2) mutations of those (character edits, SQL-injection
// payloads spliced into values, identifiers, aliases, casts, JSON keys, order terms and table
// names, raw query-string damage, deep nesting) and (3) request bodies for POST/PATCH/DELETE.
import { Rng } from './rng.js';

export interface FuzzRequest {
  method: string;
  /** Path below /api/db, as sent (already percent-encoded where it should be). */
  path: string;
  /** Decoded query parameters, encoded on send; ignored when rawQuery is set. */
  query: [string, string][];
  /** A query string sent verbatim (after a raw mutation). */
  rawQuery?: string;
  headers: Record<string, string>;
  body?: string;
  /** What produced it, for the summary. */
  origin: string;
}

// ---------------------------------------------------------------------------------------------
// The schema as the generator sees it (server/src/db/migrations/0001_core.sql + fuzz fixtures).

type ColType = 'uuid' | 'text' | 'jsonb' | 'ts' | 'int' | 'bool';

const TS: ColType = 'ts';
export const TABLES: Record<string, Record<string, ColType>> = {
  people: {
    id: 'uuid',
    name: 'text',
    email: 'text',
    avatar: 'text',
    type: 'text',
    external_id: 'text',
    properties: 'jsonb',
    last_login: TS,
    created_at: TS,
    updated_at: TS,
    deleted_at: TS,
  },
  teams: {
    id: 'uuid',
    name: 'text',
    icon: 'text',
    spec: 'jsonb',
    source: 'text',
    created_by: 'uuid',
    created_at: TS,
    updated_at: TS,
    deleted_at: TS,
  },
  team_members: { team_id: 'uuid', person_id: 'uuid' },
  properties: { name: 'text', value: 'text', created_by: 'uuid', created_at: TS, updated_at: TS },
  agents: {
    id: 'uuid',
    name: 'text',
    hostname: 'text',
    description: 'text',
    ip: 'text',
    version: 'text',
    username: 'text',
    person_id: 'uuid',
    properties: 'jsonb',
    tls: 'text',
    cleanup: 'bool',
    created_by: 'uuid',
    created_at: TS,
    updated_at: TS,
    deleted_at: TS,
    last_seen: TS,
    last_received: TS,
  },
  access_tokens: {
    id: 'uuid',
    name: 'text',
    value: 'text',
    person_id: 'uuid',
    created_by: 'uuid',
    created_at: TS,
    expires_at: TS,
    last_used_at: TS,
  },
  job_history: {
    id: 'uuid',
    name: 'text',
    success_count: 'int',
    error_count: 'int',
    details: 'jsonb',
    hostname: 'text',
    duration_millis: 'int',
    resource_type: 'text',
    resource_id: 'text',
    status: 'text',
    agent_id: 'uuid',
    time_start: TS,
    time_end: TS,
    created_at: TS,
  },
  job_history_names: { name: 'text' },
  event_queue: {
    id: 'uuid',
    name: 'text',
    properties: 'jsonb',
    error: 'text',
    attempts: 'int',
    priority: 'int',
    last_attempt: TS,
    created_at: TS,
  },
  connections: {
    id: 'uuid',
    name: 'text',
    namespace: 'text',
    type: 'text',
    url: 'text',
    username: 'text',
    password: 'text',
    certificate: 'text',
    insecure_tls: 'bool',
    properties: 'jsonb',
    source: 'text',
    created_by: 'uuid',
    created_at: TS,
    updated_at: TS,
    deleted_at: TS,
  },
};
const TABLE_NAMES = Object.keys(TABLES);
const WRITABLE = TABLE_NAMES.filter((t) => t !== 'job_history_names');

/** Embeds per table: [what goes in the select, the table it reaches]. Some are ambiguous or invalid on purpose. */
const EMBEDS: Record<string, [string, string][]> = {
  people: [
    ['teams', 'teams'],
    ['team_members', 'team_members'],
    ['agents', 'agents'],
    ['agents!agents_person_id_fkey', 'agents'],
    ['agents!person_id', 'agents'],
    ['access_tokens', 'access_tokens'],
    ['access_tokens!person_id', 'access_tokens'],
    ['connections', 'connections'],
    ['properties', 'properties'],
    ['teams!team_members', 'teams'],
    ['teams!teams_created_by_fkey', 'teams'],
    ['job_history', 'job_history'],
  ],
  teams: [
    ['created_by', 'people'],
    ['people', 'people'],
    ['people!team_members', 'people'],
    ['team_members', 'team_members'],
    ['people!created_by', 'people'],
  ],
  team_members: [
    ['team_id', 'teams'],
    ['person_id', 'people'],
    ['teams', 'teams'],
    ['people', 'people'],
  ],
  properties: [
    ['created_by', 'people'],
    ['people', 'people'],
  ],
  agents: [
    ['person_id', 'people'],
    ['created_by', 'people'],
    ['people!person_id', 'people'],
    ['people!agents_created_by_fkey', 'people'],
    ['job_history', 'job_history'],
    ['people', 'people'],
  ],
  access_tokens: [
    ['person_id', 'people'],
    ['people!access_tokens_person_id_fkey', 'people'],
    ['created_by', 'people'],
  ],
  job_history: [
    ['agent_id', 'agents'],
    ['agents', 'agents'],
  ],
  job_history_names: [['agents', 'agents']],
  event_queue: [['people', 'people']],
  connections: [
    ['created_by', 'people'],
    ['people', 'people'],
  ],
};

/** Embeds that must never resolve: the sentinels outside the registry. */
const FORBIDDEN_EMBEDS = [
  'fuzz_secret',
  'fuzz_secret_link',
  'schema_migrations',
  'people!fuzz_secret_link',
  'teams!fuzz_secret_link',
  'fuzz_secret_link_person_id_fkey',
  'fuzz_secret_link_team_id_fkey',
  'pg_sleep',
  'fuzz_touch',
  'pg_tables',
];

export const SEED_IDS = {
  people: [
    '00000000-0000-4000-8000-000000000001',
    '00000000-0000-4000-8000-000000000002',
    '00000000-0000-4000-8000-000000000003',
    '00000000-0000-4000-8000-000000000004',
  ],
  teams: ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2'],
  agents: ['00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2'],
  job_history: [
    '00000000-0000-4000-8000-0000000000c1',
    '00000000-0000-4000-8000-0000000000c2',
    '00000000-0000-4000-8000-0000000000c3',
  ],
  connections: ['00000000-0000-4000-8000-0000000000d1'],
  access_tokens: ['00000000-0000-4000-8000-0000000000e1'],
  event_queue: ['00000000-0000-4000-8000-0000000000f1'],
};
const ALL_IDS = Object.values(SEED_IDS).flat();

// ---------------------------------------------------------------------------------------------
// Payloads

/** Values meant to break out of a literal or identifier; each would leave a trace if executed. */
export const INJECTIONS: readonly string[] = [
  "'); DROP TABLE people;--",
  "'); DROP TABLE fuzz_secret;--",
  "'; DELETE FROM fuzz_secret; --",
  '"; select pg_sleep(3);--',
  "'; select pg_sleep(3);--",
  '1; select pg_sleep(3)',
  '1) OR pg_sleep(3) IS NULL --',
  "1' OR pg_sleep(3) IS NULL OR '1'='1",
  "x' OR '1'='1",
  '::text); delete from fuzz_secret;--',
  '::text; update schema_migrations set name = $$x$$;--',
  '$1',
  '$2::text',
  '$0',
  '$999999',
  '\\',
  "\\'",
  '%00',
  '\u0000',
  'a\u0000b',
  '"people"',
  'people"; drop table fuzz_secret; --',
  "\"; insert into fuzz_secret values (9, 'x'); --",
  '(select pg_sleep(3))',
  'pg_sleep(3)',
  'pg_sleep',
  'fuzz_touch()',
  '(select fuzz_touch())',
  'fuzz_touch',
  '$$; delete from fuzz_secret; $$',
  '$x$',
  '$x$ delete from fuzz_secret $x$',
  "E'\\x27'",
  "U&'\\0027'",
  '/*',
  '*/',
  '--',
  ';',
  ')',
  '((((',
  '))))',
  '{}',
  '[',
  ']',
  ',',
  '.',
  '->',
  '->>',
  '::',
  '!inner',
  '...',
  '*',
  "'",
  '"',
  '`',
  '\u202e',
  '😀',
  '\ud800',
  '\udc00x',
  'é',
  'ß',
  'İ',
  '\u00a0',
  '\t',
  '\n',
  '\r\n',
  '\u2028',
  '\ufeff',
  'fuzz_secret',
  'schema_migrations',
  'fuzz_secret_link',
  'pg_catalog.pg_tables',
  'information_schema.tables',
  'pg_class',
  'public.fuzz_secret',
  'public"."fuzz_secret',
  '"public"."fuzz_secret"',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '-Infinity',
  '99999999999999999999',
  '-9223372036854775809',
  '9223372036854775808',
  '0x10',
  '1_000',
  '',
  ' ',
  'null',
  'NULL',
  'true',
  'not.null',
  'eq.1',
  'in.()',
  'or=(id.eq.1)',
  '&select=*',
  '%',
  '_',
  '?',
  '#',
  '&',
  '=',
  '+',
  "insert into fuzz_secret values (9,'x')",
  'update schema_migrations set name = name',
  'truncate fuzz_secret',
  "copy fuzz_secret to program 'id'",
  "pg_read_file('/etc/passwd')",
  "lo_import('/etc/passwd')",
  'set role postgres',
  'commit; delete from fuzz_secret',
  'rollback',
  '"""',
  "'||'",
  "'||pg_sleep(3)||'",
  "current_setting('is_superuser')",
  'ANY',
  'ALL',
  'not',
  'not.',
  'not.not.eq.1',
  'desc',
  'nullsfirst',
  'regconfig',
  'english',
  'pg_catalog.english',
  'a'.repeat(64),
  'b'.repeat(200),
  'x'.repeat(3000),
];

const TABLE_PAYLOADS: readonly string[] = [
  'fuzz_secret',
  'schema_migrations',
  'fuzz_secret_link',
  'pg_catalog.pg_tables',
  'pg_tables',
  'pg_class',
  'pg_catalog.pg_class',
  'information_schema.tables',
  'pg_stat_activity',
  '../',
  '..',
  '..%2F..%2Fetc%2Fpasswd',
  '%2E%2E%2Ffuzz_secret',
  'rpc/pg_sleep',
  'rpc/pg_read_file',
  'rpc/fuzz_touch',
  'rpc/pg_catalog.pg_sleep',
  'rpc/',
  'rpc',
  'rpc/fuzz_echo/x',
  'rpc/%70g_sleep',
  'people/1',
  'people/',
  'PEOPLE',
  'public.people',
  '"people"',
  '%22people%22',
  'people;drop table fuzz_secret',
  'people%3Bdrop%20table%20fuzz_secret',
  'people%00',
  'people%20',
  '%',
  '%E0%A4%A',
  '%C3%28',
  'people)',
  'pg_sleep',
  'fuzz_touch',
  'current_user',
  'public.fuzz_secret',
  'fuzz_secret%00',
  'people%2F..%2Ffuzz_secret',
  'job_history_names',
  'teams%2Fx',
  'x'.repeat(300),
  '%F0%9F%98%80',
  'p%C3%A9ople',
  'people\\',
  "people'",
];

const SPECIAL_CHARS = [
  "'",
  '"',
  '(',
  ')',
  ',',
  '.',
  ':',
  ';',
  '!',
  '*',
  '\\',
  '%',
  '$',
  '&',
  '=',
  '#',
  '?',
  '/',
  ' ',
  '-',
  '>',
  '<',
  '{',
  '}',
  '[',
  ']',
  '|',
  '~',
  '@',
  '^',
  '`',
  '+',
  '\u0000',
  '\n',
  '\t',
  'é',
  '😀',
  '\u202e',
  '\ud800',
  '_',
  '0',
  'a',
  'Z',
];

const CASTS = [
  'text',
  'int',
  'int8',
  'bigint',
  'numeric',
  'json',
  'jsonb',
  'uuid',
  'bool',
  'date',
  'timestamptz',
  'double precision',
  'varchar',
  'float',
  'interval',
];
const BAD_CASTS = [
  'regclass',
  'pg_catalog.text',
  'text[]',
  'text; drop table fuzz_secret',
  'void',
  'record',
  'int)',
  'TEXT',
  'Int4',
  'tsvector',
  'money',
];

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'ops',
  'deck',
  'fuzz',
  'node',
  'Cat',
  'dog',
  'x',
  'ünïcödé',
  '日本',
  '',
  'a b',
  'a,b',
  'a)b',
  'a"b',
  "a'b",
  'a\\b',
];

// ---------------------------------------------------------------------------------------------
// Values

function jsonValue(r: Rng, depth = 0): unknown {
  const k = r.int(0, depth > 2 ? 3 : 6);
  switch (k) {
    case 0:
      return r.pick([0, 1, -1, 3.14, 1e21, -0, Number('12345678901234567890')]);
    case 1:
      return r.pick(WORDS);
    case 2:
      return r.pick([true, false, null]);
    case 3:
      return r.pick(INJECTIONS);
    case 4:
      return Array.from({ length: r.int(0, 3) }, () => jsonValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = r.int(0, 3); i > 0; i--)
        o[r.pick(['a', 'k', 'app', 'env', 'tier', r.pick(INJECTIONS)])] = jsonValue(r, depth + 1);
      return o;
    }
  }
}

function typedValue(r: Rng, t: ColType): string {
  if (r.bool(0.08)) return r.pick(INJECTIONS);
  switch (t) {
    case 'uuid':
      return r.bool(0.8)
        ? r.pick(ALL_IDS)
        : r.pick(['not-a-uuid', '00000000-0000-0000-0000-000000000000', '{00000000-0000-4000-8000-000000000001}', '0']);
    case 'text':
      return r.pick(WORDS);
    case 'jsonb':
      return JSON.stringify(jsonValue(r));
    case 'ts':
      return r.pick([
        '2024-01-01',
        '2024-01-01T10:00:00Z',
        'now',
        'infinity',
        '-infinity',
        'epoch',
        'yesterday',
        '2024-13-45',
        '1970-01-01 00:00:00+00',
      ]);
    case 'int':
      return r.pick(['0', '1', '-1', '42', '2147483647', '2147483648', '1.5', 'abc']);
    case 'bool':
      return r.pick(['true', 'false', 't', 'f', 'yes', 'no', '1', '0', 'maybe']);
  }
}

/** A value as it would appear inside a logic tree: quoted when it holds , ( ) or ". */
function logicValue(v: string, r: Rng): string {
  if (/[,()"]/.test(v) || r.bool(0.1)) return `"${v.replace(/["\\]/g, (m) => '\\' + m)}"`;
  return v;
}

function listItems(r: Rng, t: ColType, n: number): string {
  return Array.from({ length: n }, () => {
    const v = typedValue(r, t);
    return /[,(){}"\\]/.test(v) || r.bool(0.15) ? `"${v.replace(/["\\]/g, (m) => '\\' + m)}"` : v;
  }).join(',');
}

// ---------------------------------------------------------------------------------------------
// Grammar: select, filters, logic trees, order

function columnsOf(table: string): string[] {
  return Object.keys(TABLES[table] ?? TABLES.people!);
}

function colType(table: string, col: string): ColType {
  return TABLES[table]?.[col] ?? 'text';
}

function jsonPath(r: Rng): string {
  let s = '';
  for (let i = r.int(1, 3); i > 0; i--) {
    s += r.pick(['->', '->>']);
    s += r.weighted([
      [5, r.pick(['a', 'k', 'app', 'env', 'tier'])],
      [2, String(r.int(-2, 3))],
      [1, r.pick(['"a b"', '"x->y"', 'key-with-dash'])],
    ]);
  }
  return s;
}

/** A column reference: mostly a real column, sometimes with a JSON path. */
function fieldRef(r: Rng, table: string): { text: string; type: ColType } {
  const cols = columnsOf(table);
  const jsonCols = cols.filter((c) => colType(table, c) === 'jsonb');
  if (jsonCols.length && r.bool(0.25)) {
    const c = r.pick(jsonCols);
    return { text: c + jsonPath(r), type: 'text' };
  }
  const c = r.pick(cols);
  if (r.bool(0.05)) return { text: c + jsonPath(r), type: 'text' };
  return { text: c, type: colType(table, c) };
}

function selectList(r: Rng, table: string, depth: number): string {
  const items: string[] = [];
  const n = r.int(1, 4);
  for (let i = 0; i < n; i++) {
    const kind = r.weighted([
      [2, 'star'],
      [6, 'col'],
      [depth < 2 ? 3 : 0, 'embed'],
      [0.3, 'forbidden'],
    ] as const);
    if (kind === 'star') items.push('*');
    else if (kind === 'col') {
      const f = fieldRef(r, table);
      let item = f.text;
      if (r.bool(0.25)) item = `${r.pick(['a', 'alias', 'my_col', 'x1', 'nm', 'Ünï', 'with space'])}:${item}`;
      if (r.bool(0.15)) item += `::${r.bool(0.85) ? r.pick(CASTS) : r.pick(BAD_CASTS)}`;
      items.push(item);
    } else if (kind === 'embed') {
      const embeds = EMBEDS[table] ?? [];
      if (!embeds.length) continue;
      const [spec, target] = r.pick(embeds);
      let item = spec;
      if (r.bool(0.3)) item += r.pick(['!inner', '!left']);
      if (r.bool(0.15)) item = `${r.pick(['e', 'emb', 'rel'])}:${item}`;
      if (r.bool(0.1)) item = `...${item}`;
      item += `(${r.bool(0.1) ? '' : selectList(r, target, depth + 1)})`;
      items.push(item);
    } else {
      items.push(`${r.pick(FORBIDDEN_EMBEDS)}(*)`);
    }
  }
  return items.join(',') || '*';
}

const OPS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'in',
  'is',
  'isdistinct',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
] as const;
const QUANT = new Set(['eq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch']);

/** "op.value" with optional not., quantifier or FTS config; `inLogic` quotes values that need it. */
function opExpr(r: Rng, type: ColType, inLogic: boolean): string {
  const op = r.pick(OPS);
  let prefix = r.bool(0.15) ? 'not.' : '';
  let value: string;
  const lv = (v: string) => (inLogic ? logicValue(v, r) : v);
  if (op === 'in') {
    value = `(${listItems(r, type, r.int(0, 4))})`;
  } else if (op === 'is') {
    value = r.weighted([
      [8, r.pick(['null', 'not_null', 'true', 'false', 'unknown', 'NULL', 'True'])],
      [1, r.pick(['nul', 'maybe', '1'])],
    ]);
  } else if (QUANT.has(op) && r.bool(0.2)) {
    prefix += '';
    const q = r.pick(['(any)', '(all)']);
    const items =
      op === 'like' || op === 'ilike'
        ? Array.from({ length: r.int(1, 3) }, () => `*${r.pick(WORDS.slice(0, 8))}*`).join(',')
        : listItems(r, type, r.int(0, 3));
    return `${prefix}${op}${q}.{${items}}`;
  } else if (op === 'like' || op === 'ilike') {
    value = lv(r.pick(['*', '*a*', 'alpha*', '*ta', '%', '_', 'a\\*', `*${r.pick(WORDS)}*`]));
  } else if (op === 'match' || op === 'imatch') {
    value = lv(r.pick(['^a', 'a.*b', '(a|b)+', '[', '(', '\\', '^(a+)+$', '[[:alpha:]]', '.*'.repeat(5)]));
  } else if (op === 'cs' || op === 'cd' || op === 'ov') {
    value = lv(
      type === 'jsonb'
        ? JSON.stringify(jsonValue(r))
        : r.pick(['{a,b}', '{}', '{1,2}', '["a"]', '{"a":1}', '[1,10]', '(1,2)']),
    );
  } else if (['sl', 'sr', 'nxr', 'nxl', 'adj'].includes(op)) {
    value = lv(r.pick(['[1,10]', '(1,10)', '[2024-01-01,2024-02-01)', 'empty', '[a,b]', '(,)']));
  } else if (op.endsWith('fts')) {
    const cfg = r.bool(0.3) ? `(${r.pick(['english', 'simple', 'german', 'nonexistent', 'pg_catalog.english'])})` : '';
    return `${prefix}${op}${cfg}.${lv(r.pick(['cat', 'cat & dog', "'a' | b", '!!!', 'cat:*', 'fat rat', '"quoted phrase"', '&', '']))}`;
  } else {
    value = lv(typedValue(r, type));
  }
  return `${prefix}${op}.${value}`;
}

function logicTree(r: Rng, table: string, depth: number): string {
  const items: string[] = [];
  for (let i = r.int(1, 3); i > 0; i--) {
    if (depth < 3 && r.bool(0.25)) {
      items.push(`${r.bool(0.2) ? 'not.' : ''}${r.pick(['and', 'or'])}${logicTree(r, table, depth + 1)}`);
    } else {
      const f = fieldRef(r, table);
      items.push(`${f.text}.${opExpr(r, f.type, true)}`);
    }
  }
  return `(${items.join(',')})`;
}

function orderTerms(r: Rng, table: string): string {
  return Array.from({ length: r.int(1, 3) }, () => {
    let t = fieldRef(r, table).text;
    if (r.bool(0.6)) t += r.pick(['.asc', '.desc']);
    if (r.bool(0.3)) t += r.pick(['.nullsfirst', '.nullslast']);
    return t;
  }).join(',');
}

function filterParams(r: Rng, table: string, q: [string, string][], max: number) {
  for (let i = r.int(0, max); i > 0; i--) {
    const kind = r.weighted([
      [6, 'filter'],
      [2, 'logic'],
    ] as const);
    if (kind === 'filter') {
      const f = fieldRef(r, table);
      q.push([f.text, opExpr(r, f.type, false)]);
    } else {
      q.push([r.pick(['or', 'and', 'not.or', 'not.and']), logicTree(r, table, 0)]);
    }
  }
}

/** Options on an embed: teams.name=eq.x, teams.order=name, teams.limit=1. */
function embedParams(r: Rng, select: string, q: [string, string][]) {
  const m = /(?:^|[,(])(?:\w+:)?(?:\.\.\.)?(\w+)(?:![\w]+)*\(/.exec(select);
  if (!m) return;
  const key = m[1]!;
  const target =
    Object.values(EMBEDS)
      .flat()
      .find(([spec]) => spec.split('!')[0] === key)?.[1] ?? 'people';
  const kind = r.pick(['filter', 'order', 'limit', 'offset', 'or', 'isnull'] as const);
  if (kind === 'filter') {
    const f = fieldRef(r, target);
    q.push([`${key}.${f.text}`, opExpr(r, f.type, false)]);
  } else if (kind === 'order') q.push([`${key}.order`, orderTerms(r, target)]);
  else if (kind === 'limit') q.push([`${key}.limit`, String(r.int(0, 3))]);
  else if (kind === 'offset') q.push([`${key}.offset`, String(r.int(0, 3))]);
  else if (kind === 'or') q.push([`${key}.or`, logicTree(r, target, 1)]);
  else q.push([key, r.pick(['is.null', 'not.is.null'])]);
}

function preferHeader(r: Rng, write: boolean): string | undefined {
  if (!write && r.bool(0.7)) return undefined;
  const parts: string[] = [];
  if (write)
    parts.push(
      `return=${r.weighted([
        [5, 'representation'],
        [3, 'minimal'],
        [1, 'headers-only'],
      ])}`,
    );
  if (r.bool(write ? 0.6 : 0)) parts.push('tx=rollback');
  else if (r.bool(0.1)) parts.push('tx=commit');
  if (r.bool(0.3)) parts.push(`count=${r.pick(['exact', 'planned', 'estimated'])}`);
  if (write && r.bool(0.25)) parts.push(`resolution=${r.pick(['merge-duplicates', 'ignore-duplicates'])}`);
  if (r.bool(0.1)) parts.push(`missing=${r.pick(['default', 'null'])}`);
  if (r.bool(0.15)) parts.push(`handling=${r.pick(['strict', 'lenient'])}`);
  if (r.bool(0.05)) parts.push('params=single-object');
  if (r.bool(0.05)) parts.push(r.pick(['return=everything', 'count', '=', 'foo=bar', 'tx=rollback;drop', ',,,']));
  return parts.join(r.pick([', ', ',', ' , ']));
}

function addHeaders(r: Rng, h: Record<string, string>, write: boolean) {
  const prefer = preferHeader(r, write);
  if (prefer) h['prefer'] = prefer;
  if (r.bool(0.2))
    h['accept'] = r.pick([
      'application/json',
      'application/vnd.pgrst.object+json',
      'application/vnd.pgrst.object',
      '*/*',
      'text/csv',
      'application/geo+json',
      'text/html;q=0.9, application/json',
    ]);
  if (!write && r.bool(0.15))
    h['range'] = r.pick([
      '0-4',
      '1-1',
      'items=2-',
      '0-0',
      '5-1',
      '0-999999999999',
      '10-',
      'garbage',
      '-5',
      `${r.int(0, 20)}-${r.int(0, 20)}`,
    ]);
}

// ---------------------------------------------------------------------------------------------
// Bodies

function rowObject(r: Rng, table: string, cols: string[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const c of cols) {
    const t = colType(table, c);
    if (r.bool(0.08)) {
      o[c] = r.pick<unknown>([
        r.pick(INJECTIONS),
        1e300,
        -1,
        Number('12345678901234567890'),
        [],
        {},
        true,
        null,
        'x'.repeat(500),
      ]);
      continue;
    }
    switch (t) {
      case 'uuid':
        o[c] = r.bool(0.3)
          ? `${'00000000-0000-4000-9000-'}${String(r.int(0, 999999999999)).padStart(12, '0')}`
          : r.pick(ALL_IDS);
        break;
      case 'text':
        o[c] = `fuzz ${r.pick(WORDS)} ${r.int(0, 1e6)}`;
        break;
      case 'jsonb':
        o[c] = jsonValue(r);
        break;
      case 'ts':
        o[c] = r.pick(['2024-01-01T00:00:00Z', null, 'now', 'not a date']);
        break;
      case 'int':
        o[c] = r.pick([0, 1, 7, -3, 2147483648, 1.5, '12']);
        break;
      case 'bool':
        o[c] = r.pick([true, false, 'yes', 0]);
        break;
    }
  }
  return o;
}

function writeColumns(r: Rng, table: string): string[] {
  const cols = columnsOf(table);
  const required =
    (
      {
        people: ['name'],
        teams: ['name'],
        team_members: ['team_id', 'person_id'],
        properties: ['name', 'value'],
        agents: ['name'],
        access_tokens: ['name', 'value', 'person_id'],
        job_history: ['name'],
        event_queue: ['name'],
        connections: ['name', 'type'],
      } as Record<string, string[]>
    )[table] ?? [];
  return [...new Set([...required.filter(() => r.bool(0.9)), ...r.some(cols, 0, 3)])];
}

function deep(open: string, close: string, n: number, inner = '1'): string {
  return open.repeat(n) + inner + close.repeat(n);
}

export function generateBody(r: Rng, table: string, method: string): string | undefined {
  const kind = r.weighted([
    [10, 'object'],
    [6, 'array'],
    [2, 'mismatched'],
    [1, 'nested'],
    [2, 'wrongTypes'],
    [2, 'injectKeys'],
    [3, 'invalid'],
    [2, 'odd'],
    [0.5, 'large'],
    [0.3, 'deep'],
  ] as const);
  const cols = writeColumns(r, table);
  switch (kind) {
    case 'object':
      return JSON.stringify(rowObject(r, table, cols));
    case 'array':
      return JSON.stringify(Array.from({ length: r.int(0, 5) }, () => rowObject(r, table, cols)));
    case 'mismatched':
      return JSON.stringify([rowObject(r, table, cols), rowObject(r, table, writeColumns(r, table))]);
    case 'nested': {
      const o = rowObject(r, table, cols);
      o[r.pick(cols.length ? cols : ['name'])] = { deep: { deeper: [jsonValue(r), { x: jsonValue(r) }] } };
      return JSON.stringify(method === 'POST' && r.bool(0.5) ? [o] : o);
    }
    case 'wrongTypes': {
      const o: Record<string, unknown> = {};
      for (const c of cols)
        o[c] = r.pick<unknown>([[1, 2], { a: 1 }, 1e308, -1e308, 'text', true, 3.5, null, '2024-99-99']);
      return JSON.stringify(o);
    }
    case 'injectKeys': {
      const o = rowObject(r, table, cols);
      o[r.pick(INJECTIONS)] = r.pick(INJECTIONS);
      if (r.bool(0.5))
        o[`${r.pick(cols.length ? cols : ['name'])}${r.pick(['"', "'", ') ', '; drop table fuzz_secret', '::text'])}`] =
          1;
      return JSON.stringify(o);
    }
    case 'invalid':
      return r.pick([
        '{',
        '}',
        '{"name":}',
        '[1,2',
        'nul',
        "{'name':'x'}",
        '{"name":"x",}',
        '{"a":1}{"b":2}',
        '\ufeff{"name":"x"}',
        '{"name":"\u0000"}',
        '{"name":"\\u0000"}',
        '{"name":"\\ud800"}',
        'undefined',
        'NaN',
        '{"name":NaN}',
        '[,]',
        '"\\',
        '\u0000',
        '{"name":"x"',
        '[{"name":"x"},]',
        '<xml/>',
        'name=x',
        '{"name": 1e99999}',
        '{"__proto__": {"name": "x"}}',
        '{"constructor": {"prototype": {}}}',
      ]);
    case 'odd':
      return r.pick([
        '',
        ' ',
        'null',
        '1',
        '"x"',
        '[]',
        '[1]',
        '[{}]',
        '{}',
        '[[]]',
        'true',
        '[null]',
        '[{}, {"name": "x"}]',
        '{"": 1}',
      ]);
    case 'large':
      return JSON.stringify(Array.from({ length: r.int(50, 300) }, () => rowObject(r, table, cols)));
    case 'deep':
      return r.bool(0.5) ? deep('[', ']', r.int(100, 5000)) : `{"properties":${deep('{"a":', '}', r.int(100, 3000))}}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

export function generateRequest(r: Rng): FuzzRequest {
  const method = r.weighted([
    [50, 'GET'],
    [5, 'HEAD'],
    [17, 'POST'],
    [12, 'PATCH'],
    [10, 'DELETE'],
    [5, 'RPC'],
    [1, 'OTHER'],
  ] as const);
  if (method === 'RPC') return rpcRequest(r);
  const write = method !== 'GET' && method !== 'HEAD' && method !== 'OTHER';
  const table = write ? r.pick(WRITABLE) : r.pick(TABLE_NAMES);
  const q: [string, string][] = [];
  const headers: Record<string, string> = {};
  const realMethod = method === 'OTHER' ? r.pick(['PUT', 'OPTIONS', 'PROPFIND', 'get', 'post']) : method;
  let select: string | undefined;
  if (!write || r.bool(0.5)) {
    select = selectList(r, table, 0);
    if (r.bool(0.9)) q.push(['select', select]);
  }
  if (method === 'POST') {
    if (r.bool(0.15)) q.push(['on_conflict', r.some(columnsOf(table), 1, 2).join(',')]);
    if (r.bool(0.1)) q.push(['columns', r.some(columnsOf(table), 1, 3).join(',')]);
  } else {
    // PATCH/DELETE without a filter touches every row: keep them rarer.
    filterParams(r, table, q, method === 'GET' || method === 'HEAD' ? 4 : 2);
    if (write && r.bool(0.7)) q.push(['id', `eq.${r.pick(ALL_IDS)}`]);
  }
  if (select && select.includes('(') && r.bool(0.35)) embedParams(r, select, q);
  if (!write && r.bool(0.3)) q.push(['order', orderTerms(r, table)]);
  if (r.bool(0.2))
    q.push([
      'limit',
      r.weighted([
        [8, String(r.int(0, 10))],
        [1, r.pick(['-1', '1.5', 'all', '99999999999999999999', ''])],
      ]),
    ]);
  if (r.bool(0.1))
    q.push([
      'offset',
      r.weighted([
        [8, String(r.int(0, 10))],
        [1, r.pick(['-1', 'x', '9223372036854775808'])],
      ]),
    ]);
  addHeaders(r, headers, write);
  const body =
    write && method !== 'DELETE'
      ? generateBody(r, table, method)
      : write && r.bool(0.1)
        ? generateBody(r, table, method)
        : undefined;
  if (body !== undefined)
    headers['content-type'] = r.bool(0.95)
      ? 'application/json'
      : r.pick(['text/plain', 'application/x-www-form-urlencoded', 'text/csv']);
  return { method: realMethod, path: `/${table}`, query: q, headers, body, origin: 'grammar' };
}

function rpcRequest(r: Rng): FuzzRequest {
  const fn = r.weighted([
    [5, 'fuzz_echo'],
    [4, 'fuzz_people'],
    [2, 'fuzz_touch'],
    [1, 'pg_sleep'],
    [1, 'pg_read_file'],
    [1, 'nonexistent'],
  ]);
  const method = r.weighted([
    [5, 'GET'],
    [5, 'POST'],
    [1, 'HEAD'],
    [1, 'PATCH'],
  ]);
  const q: [string, string][] = [];
  const headers: Record<string, string> = {};
  const args: Record<string, unknown> = {};
  if (fn === 'fuzz_echo') {
    if (r.bool(0.9)) args['msg'] = r.bool(0.8) ? r.pick(WORDS) : r.pick(INJECTIONS);
    if (r.bool(0.4)) args['n'] = r.pick<unknown>([1, 2, 3, 0, -1, 'x', 1e10, null]);
  } else if (fn === 'fuzz_people') {
    if (r.bool(0.6)) args['q'] = r.bool(0.8) ? r.pick(['a', 'fuzz', '', '%']) : r.pick(INJECTIONS);
    if (r.bool(0.5)) q.push(['select', selectList(r, 'people', 0)]);
    filterParams(r, 'people', q, 2);
    if (r.bool(0.3)) q.push(['order', orderTerms(r, 'people')]);
    if (r.bool(0.2)) q.push(['limit', String(r.int(0, 3))]);
  } else if (fn === 'pg_sleep') args['seconds'] = 3;
  else if (fn === 'pg_read_file') args['filename'] = '/etc/passwd';
  if (r.bool(0.1)) args[r.pick(INJECTIONS)] = r.pick(INJECTIONS);
  let body: string | undefined;
  if (method === 'GET' || method === 'HEAD')
    for (const [k, v] of Object.entries(args)) q.push([k, typeof v === 'string' ? v : JSON.stringify(v)]);
  else body = r.bool(0.9) ? JSON.stringify(args) : generateBody(r, 'people', 'POST');
  if (body !== undefined) headers['content-type'] = 'application/json';
  addHeaders(r, headers, method !== 'GET' && method !== 'HEAD');
  return { method, path: `/rpc/${fn}`, query: q, headers, body, origin: 'rpc' };
}

// ---------------------------------------------------------------------------------------------
// Mutations

type Target = { get(): string; set(v: string): void };

/** Every string in the request a mutation may edit. */
function targets(req: FuzzRequest): Target[] {
  const out: Target[] = [];
  req.query.forEach((pair) => {
    out.push({ get: () => pair[1], set: (v) => (pair[1] = v) });
    out.push({ get: () => pair[0], set: (v) => (pair[0] = v) });
  });
  // Values weigh more than the rest.
  req.query.forEach((pair) => out.push({ get: () => pair[1], set: (v) => (pair[1] = v) }));
  for (const k of Object.keys(req.headers)) out.push({ get: () => req.headers[k]!, set: (v) => (req.headers[k] = v) });
  if (req.body !== undefined) out.push({ get: () => req.body!, set: (v) => (req.body = v) });
  return out;
}

function insertAt(s: string, pos: number, piece: string): string {
  return s.slice(0, pos) + piece + s.slice(pos);
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;

/** Replaces one identifier-looking token (column, alias, cast, JSON key, order term, embed) in s. */
function replaceIdentifier(r: Rng, s: string, payload: string): string {
  const matches = [...s.matchAll(IDENT)];
  if (!matches.length) return payload;
  const m = r.pick(matches);
  const replacement = r.weighted([
    [3, payload],
    [2, `"${payload.replace(/"/g, r.bool(0.5) ? '\\"' : '"')}"`],
    [1, `"${payload}`],
  ]);
  return s.slice(0, m.index) + replacement + s.slice(m.index! + m[0].length);
}

function mutateOnce(r: Rng, req: FuzzRequest): string {
  const op = r.weighted([
    [6, 'insertChar'],
    [4, 'deleteChar'],
    [3, 'duplicate'],
    [8, 'splice'],
    [4, 'replaceValue'],
    [8, 'replaceIdent'],
    [3, 'table'],
    [3, 'addParam'],
    [2, 'dropParam'],
    [2, 'dupParam'],
    [2, 'method'],
    [3, 'raw'],
    [3, 'body'],
    [2, 'header'],
    [1, 'deep'],
    [1, 'long'],
  ] as const);
  const ts = targets(req);
  const t = ts.length ? r.pick(ts) : undefined;
  switch (op) {
    case 'insertChar': {
      if (!t) return 'noop';
      const s = t.get();
      t.set(insertAt(s, r.int(0, s.length), r.pick(SPECIAL_CHARS)));
      return op;
    }
    case 'deleteChar': {
      if (!t) return 'noop';
      const s = t.get();
      const at = r.int(0, Math.max(0, s.length - 1));
      t.set(s.slice(0, at) + s.slice(at + r.int(1, 3)));
      return op;
    }
    case 'duplicate': {
      if (!t) return 'noop';
      const s = t.get();
      const a = r.int(0, s.length);
      const b = Math.min(s.length, a + r.int(1, 12));
      t.set(insertAt(s, b, s.slice(a, b).repeat(r.int(1, 4))));
      return op;
    }
    case 'splice': {
      if (!t) return 'noop';
      const s = t.get();
      t.set(insertAt(s, r.int(0, s.length), r.pick(INJECTIONS)));
      return op;
    }
    case 'replaceValue': {
      if (!t) return 'noop';
      const s = t.get();
      // Keep the operator so the payload lands in a filter value.
      const m = /^(not\.)?[a-z]+(\([a-z]+\))?\./.exec(s);
      t.set((m && r.bool(0.7) ? m[0] : '') + r.pick(INJECTIONS));
      return op;
    }
    case 'replaceIdent': {
      if (!t) return 'noop';
      t.set(replaceIdentifier(r, t.get(), r.pick(INJECTIONS)));
      return op;
    }
    case 'table': {
      const payload = r.pick(TABLE_PAYLOADS);
      req.path = `/${r.bool(0.7) ? payload : encodeURIComponent(payload)}`;
      return op;
    }
    case 'addParam': {
      const key = r.weighted([
        [3, r.pick(INJECTIONS)],
        [3, r.pick(['select', 'order', 'limit', 'offset', 'or', 'and', 'on_conflict', 'columns', 'not.or'])],
        [3, r.pick(columnsOf('people'))],
      ]);
      const value = r.weighted([
        [3, r.pick(INJECTIONS)],
        [3, `eq.${r.pick(INJECTIONS)}`],
        [2, `in.(${r.pick(INJECTIONS)})`],
        [1, 'is.null'],
      ]);
      req.query.push([key, value]);
      return op;
    }
    case 'dropParam':
      if (req.query.length) req.query.splice(r.int(0, req.query.length - 1), 1);
      return op;
    case 'dupParam':
      if (req.query.length) req.query.push([...r.pick(req.query)]);
      return op;
    case 'method':
      req.method = r.pick(['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS']);
      if ((req.method === 'POST' || req.method === 'PATCH') && req.body === undefined)
        req.body = generateBody(r, 'people', req.method);
      return op;
    case 'raw': {
      let raw = encodeQuery(req.query);
      for (let i = r.int(1, 3); i > 0; i--) {
        raw = insertAt(
          raw,
          r.int(0, raw.length),
          r.pick([
            '%',
            '%00',
            '&',
            '=',
            '%FF',
            '%C3%28',
            '+',
            '#',
            '%2',
            '&&',
            '==',
            '%25',
            '%u0041',
            ';',
            '%0A',
            '%0D%0A',
            '\\',
            '"',
            "'",
            '`',
            '{',
            '|',
          ]),
        );
      }
      req.rawQuery = raw;
      return op;
    }
    case 'body': {
      if (req.body === undefined) {
        req.body = generateBody(r, 'people', 'POST');
        return op;
      }
      try {
        const parsed: unknown = JSON.parse(req.body);
        const rows = Array.isArray(parsed) ? parsed : [parsed];
        const row = rows[0];
        if (row && typeof row === 'object' && !Array.isArray(row)) {
          const o = row as Record<string, unknown>;
          const keys = Object.keys(o);
          if (keys.length && r.bool(0.5)) o[r.pick(keys)] = r.pick(INJECTIONS);
          else o[r.pick(INJECTIONS)] = r.pick<unknown>([r.pick(INJECTIONS), 1, null]);
          req.body = JSON.stringify(parsed);
          return op;
        }
      } catch {
        // Not JSON: edit the text below.
      }
      req.body = insertAt(req.body, r.int(0, req.body.length), r.pick(SPECIAL_CHARS));
      return op;
    }
    case 'header': {
      const name = r.pick(['prefer', 'accept', 'range', 'content-type']);
      req.headers[name] = r.pick([
        ...INJECTIONS.slice(0, 20),
        'return=representation, return=minimal',
        'count=exact, count=planned',
        'tx=rollback, tx=commit',
        'items=0-',
        '0-',
        '-',
        'items=999999999999999999999-',
        'application/vnd.pgrst.object+json; nulls=stripped',
        'application/octet-stream',
        'handling=strict, foo=bar',
        'missing=default',
        'resolution=merge-duplicates',
      ]);
      return op;
    }
    case 'deep': {
      // Sizes keep the request line under Node's 16 KB header limit, so the app sees them.
      const which = r.pick(['or', 'select', 'order', 'in', 'json', 'parens'] as const);
      const n = r.int(50, { or: 2400, select: 1500, order: 1200, in: 2000, json: 2500, parens: 3000 }[which]);
      if (which === 'or') req.query.push(['or', deep('(and', ')', n, '(id.eq.1)').replace(/^\(and/, '(')]);
      else if (which === 'select') req.query.push(['select', deep('people(', ')', n, '*')]);
      else if (which === 'order') req.query.push(['order', Array.from({ length: n }, () => 'name.desc').join(',')]);
      else if (which === 'in')
        req.query.push(['name', `in.(${Array.from({ length: n }, (_, i) => `v${i}`).join(',')})`]);
      else if (which === 'json') req.query.push(['properties' + '->a'.repeat(n), 'eq.1']);
      else req.query.push([r.pick(['or', 'name', 'select']), '('.repeat(n)]);
      return `${op}:${which}`;
    }
    case 'long': {
      if (!t) return 'noop';
      t.set(t.get() + r.pick(['a', '(', ',', 'é', '😀', '%']).repeat(r.int(500, 6000)));
      return op;
    }
  }
}

export function mutate(r: Rng, req: FuzzRequest): FuzzRequest {
  const copy: FuzzRequest = { ...req, query: req.query.map(([k, v]) => [k, v]), headers: { ...req.headers } };
  const ops: string[] = [];
  for (
    let i = r.weighted([
      [5, 1],
      [3, 2],
      [2, 3],
      [1, 5],
    ]);
    i > 0;
    i--
  )
    ops.push(mutateOnce(r, copy));
  copy.origin = `mutated(${ops.join('+')})`;
  return copy;
}

/** Request `index` of the run seeded with `seed`: grammar-based, 55%, or a mutation of one. */
export function requestFor(seed: number, index: number): FuzzRequest {
  const r = Rng.forIndex(seed, index);
  const base = generateRequest(r);
  return r.bool(0.45) ? mutate(r, base) : base;
}

/** people → teams → people → … through team_members, `depth` embeds deep. */
function manyToManyChain(depth: number): string {
  let s = '';
  for (let i = 0; i < depth; i++) s += i % 2 ? 'people!team_members(' : 'teams!team_members(';
  return s + 'id' + ')'.repeat(depth);
}

// ---------------------------------------------------------------------------------------------
// Targeted requests: hand-written injections into every position the grammar has, the sentinels
// addressed directly, and regressions (requests the fuzzer once found answered with a 500).
// They run before the generated ones, whatever the seed.

export function targetedRequests(): FuzzRequest[] {
  const P1 = SEED_IDS.people[0]!;
  const sleep = "'; select pg_sleep(3);--";
  const json = { 'content-type': 'application/json' };
  const rollback = { ...json, prefer: 'tx=rollback, return=representation' };
  const get = (path: string, ...query: [string, string][]): FuzzRequest => ({
    method: 'GET',
    path,
    query,
    headers: {},
    origin: 'targeted',
  });
  const write = (
    method: string,
    path: string,
    body: string | undefined,
    query: [string, string][] = [],
    headers: Record<string, string> = rollback,
  ): FuzzRequest => ({
    method,
    path,
    query,
    headers,
    body,
    origin: 'targeted',
  });
  return [
    // Values
    get('/people', ['name', "eq.'); DROP TABLE fuzz_secret;--"]),
    get('/people', ['name', "eq.x' OR pg_sleep(3) IS NULL OR '1'='1"]),
    get('/people', ['name', `in.(a,"b')); select pg_sleep(3);--")`]),
    get('/people', ['name', `like(any).{"${sleep}",a*}`]),
    get('/people', ['or', `(name.eq.a,name.eq."${sleep}")`]),
    get('/people', ['or', '(name.eq.a,name.eq.b);select pg_sleep(3)']),
    get('/people', ['name', 'fts.cat & pg_sleep(3)']),
    get('/people', ['properties', `cs.{"a":"${sleep}"}`]),
    get('/people', ['name', 'isdistinct.$1']),
    get('/people', ['name', 'eq.$$; delete from fuzz_secret; $$']),
    // Identifiers: columns, aliases, casts, JSON keys, order terms, FTS configurations
    get('/people', ['select', 'name::text); delete from fuzz_secret;--']),
    get('/people', ['select', '"pg_sleep(3)":name']),
    get('/people', ['select', `name,"${sleep}"`]),
    get('/people', ['select', `"a""; select pg_sleep(3);--":name`]),
    get('/people', ['select', 'properties->>"\'; select pg_sleep(3);--"']),
    get('/people', ['select', 'name::regclass']),
    get('/people', ['order', 'name; select pg_sleep(3)']),
    get('/people', ['order', '"name"";select pg_sleep(3);--".desc']),
    get('/people', [`properties->>${sleep}`, 'eq.1']),
    get('/people', ['properties->>a', "eq.1' ; select pg_sleep(3) --"]),
    get('/people', ['name', "fts(english'); select pg_sleep(3);--).cat"]),
    get('/people', ['name', 'fts(pg_catalog.english).cat']),
    get('/people', ['"name"; delete from fuzz_secret;--', 'eq.x']),
    // The sentinels: relations, embeds, functions
    get('/fuzz_secret'),
    get('/fuzz_secret_link'),
    get('/schema_migrations'),
    get('/pg_catalog.pg_tables'),
    get('/%22fuzz_secret%22'),
    get('/public.fuzz_secret'),
    get('/..%2Ffuzz_secret'),
    get('/people', ['select', '*,fuzz_secret(*)']),
    get('/people', ['select', '*,fuzz_secret_link(*)']),
    get('/people', ['select', '*,teams!fuzz_secret_link(*)']),
    get('/teams', ['select', '*,people!fuzz_secret_link(*)']),
    get('/teams', ['select', '*,fuzz_secret_link_team_id_fkey(*)']),
    get('/people', ['select', '*,schema_migrations(*)']),
    write('POST', '/fuzz_secret', '{"id": 9, "note": "x"}'),
    write('PATCH', '/schema_migrations', '{"name": "x"}'),
    write('DELETE', '/fuzz_secret', undefined),
    write('DELETE', '/schema_migrations', undefined),
    get('/rpc/pg_sleep', ['seconds', '3']),
    write('POST', '/rpc/pg_sleep', '{"seconds": 3}', [], json),
    get('/rpc/pg_read_file', ['filename', '/etc/passwd']),
    get('/rpc/fuzz_touch'),
    write('POST', '/rpc/fuzz_touch', '{}', [], json),
    get('/rpc/fuzz_echo', ['msg', sleep]),
    write('POST', '/rpc/fuzz_echo', `{"msg": "x", "n); select pg_sleep(3);--": 1}`, [], json),
    get('/rpc/fuzz_people', ['select', '*,fuzz_secret(*)']),
    get('/rpc/fuzz_people', ['q', "%' union select * from fuzz_secret --"]),
    // Writes: columns, on_conflict, keys and values of the body
    write('POST', '/people', '{"name": "x"}', [['columns', 'name,"email); delete from fuzz_secret;--"']]),
    write('POST', '/people', '{"name": "x"}', [['on_conflict', 'id); delete from fuzz_secret;--']], {
      ...rollback,
      prefer: 'tx=rollback, resolution=merge-duplicates',
    }),
    write('POST', '/people', '{"name); delete from fuzz_secret;--": "x"}'),
    write('POST', '/people', `{"name": "'); delete from fuzz_secret;--"}`),
    write('POST', '/people', '{"name": "x"}', [['select', '*,fuzz_secret(*)']]),
    write('PATCH', '/people', `{"name": "x', name = (select note from fuzz_secret limit 1) --"}`, [['id', `eq.${P1}`]]),
    write('PATCH', '/people', '{"name": "x"}', [['id', `eq.${P1}'; delete from fuzz_secret;--`]]),
    write('DELETE', '/people', undefined, [['id', `eq.${P1}' OR '1'='1`]]),
    // Sizes and limits
    // Deep enough to overflow a recursive planner, short enough for Node's 16 KB request line.
    get('/people', ['or', `(${'and('.repeat(2900)}name.eq.a${')'.repeat(2900)})`]),
    get('/people', ['select', `${'teams('.repeat(1500)}*${')'.repeat(1500)}`]),
    get('/people', ['select', manyToManyChain(150)]),
    get('/people', ['select', manyToManyChain(650)]),
    write('POST', '/people', `${'['.repeat(5000)}${']'.repeat(5000)}`),
    write('POST', '/people', `{"name": "x", "properties": ${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`),
    get('/people', ['limit', '99999999999999999999']),
    get('/people', ['offset', '9223372036854775808']),
    { ...get('/people'), headers: { range: '0-999999999999999999999' } },
    // Regressions
    get('/agents', ['cleanup', 'eq.maybe']), // PGlite: "Invalid input for boolean type" → 500
    get('/agents', ['cleanup', 'eq.']),
    get('/agents', ['cleanup', 'isdistinct.tru']),
    write('PATCH', '/connections', '{}', [['insecure_tls', 'lt.']]),
    write('DELETE', '/job_history_names', undefined), // 55000 "cannot delete from view" → 500
    write('POST', '/job_history_names', '{"name": "x"}'),
    write('PATCH', '/job_history_names', '{"name": "x"}'),
  ];
}

// ---------------------------------------------------------------------------------------------
// Encoding

export function encodeQuery(query: [string, string][]): string {
  return query.map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(v)}`).join('&');
}

/** encodeURIComponent, leaving PostgREST's punctuation readable; lone surrogates become U+FFFD. */
function encodeComponent(s: string): string {
  return encodeURIComponent(wellFormed(s))
    .replace(/%28/g, '(')
    .replace(/%29/g, ')')
    .replace(/%2C/g, ',')
    .replace(/%3A/g, ':');
}

/** Lone surrogates cannot be sent as UTF-8 (encodeURIComponent throws on them): U+FFFD instead. */
export function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** The request line's path and query, as sent. */
export function requestTarget(req: FuzzRequest): string {
  const qs = req.rawQuery ?? encodeQuery(req.query);
  return `/api/db${req.path}${qs ? `?${qs}` : ''}`;
}

/** A one-line description for reports. */
export function describeRequest(req: FuzzRequest): string {
  const headers = Object.entries(req.headers)
    .filter(([k]) => k !== 'content-type')
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
  const body =
    req.body === undefined
      ? ''
      : ` body=${JSON.stringify(req.body.length > 300 ? req.body.slice(0, 300) + '…' : req.body)}`;
  const target = requestTarget(req);
  return `${req.method} ${target.length > 400 ? target.slice(0, 400) + '…' : target}${headers ? ` [${headers}]` : ''}${body}`;
}
