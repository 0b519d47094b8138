// Audits the SQL text the REST layer sends to the database: every value must arrive as a bound
// parameter and every identifier as a quoted name taken from the exposure registry. A statement
// passes when, after removing quoted identifiers and $n parameters, it holds only words the REST
// layer's own source uses (server/src/rest/*.ts, read at test time so the audit follows changes
// to the statement builder) and none of the denied words, every relation and function it names
// ("public"."x") is exposed, and every string literal is one the source writes. Anything a
// request managed to inject (a pg_sleep call, a second statement, a write into a sentinel)
// leaves a denied or foreign word, a literal, a ; or a comment behind and fails the audit, while
// a payload that stayed inside a quoted identifier (an alias "pg_sleep") or a parameter is
// harmless.
import fs from 'node:fs';
import path from 'node:path';

/** Words that must never reach the SQL text unquoted, whatever the source says. */
const DENIED = new Set(
  `pg_sleep fuzz_secret fuzz_secret_link schema_migrations fuzz_touch drop truncate copy pg_read_file pg_read_binary_file
   lo_import lo_export alter create grant revoke pg_terminate_backend pg_cancel_backend program execute dblink
   set_config current_setting pg_ls_dir information_schema pg_tables pg_class pg_authid`
    .split(/\s+/)
    .filter(Boolean),
);

/** The words the statement builder writes (also if the source changes the wording a little). */
const BASE_VOCABULARY = `
select from as where and or not null bigint pg_catalog count coalesce json_agg text json row_to_json left inner join
lateral on true false is distinct order by asc desc nulls first last limit offset any all like ilike int with insert
into json_populate_recordset json_populate_record returning conflict do nothing update set excluded delete
to_tsquery plainto_tsquery phraseto_tsquery websearch_to_tsquery regconfig unknown _rows _body _t _r _args v total
page_total body pgrst_source cross json_to_record transaction read only
varchar char name citext int2 int4 int8 integer smallint numeric decimal real float float4 float8 double precision
bool boolean date time timetz timestamp timestamptz interval uuid jsonb`;

export interface Vocabulary {
  words: Set<string>;
  /** String literals ('...') the source writes into statements. */
  literals: Set<string>;
}

/** The vocabulary of the REST layer as it is on disk now. */
export function restVocabulary(restDir = path.resolve(import.meta.dirname, '../../src/rest')): Vocabulary {
  const words = new Set(BASE_VOCABULARY.split(/\s+/).filter(Boolean));
  const literals = new Set<string>(['[]']);
  for (const file of fs.readdirSync(restDir)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const source = fs.readFileSync(path.join(restDir, file), 'utf8');
    for (const m of source.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) words.add(m[0].toLowerCase());
    // SQL literals inside JS strings: '[]' in a template, "'[]'" in a quoted string.
    for (const m of source.matchAll(/'([^'`\n$]{0,40})'/g)) literals.add(m[1]!);
  }
  for (const w of DENIED) words.delete(w);
  return { words, literals };
}

type Token =
  | { kind: 'ident'; value: string; at: number }
  | { kind: 'literal'; value: string; at: number }
  | { kind: 'param'; at: number }
  | { kind: 'word'; value: string; at: number }
  | { kind: 'number'; at: number }
  | { kind: 'punct'; value: string; at: number };

const WORD = /[A-Za-z_][A-Za-z0-9_$]*/y;
const NUMBER = /[0-9]+/y;
const PARAM = /\$\d+/y;

/** Matches a sticky regex at i (linear: statements for deeply nested requests get long). */
function matchAt(re: RegExp, s: string, i: number): string | undefined {
  re.lastIndex = i;
  return re.exec(s)?.[0];
}

function tokenize(sql: string, problems: string[]): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r') {
      i++;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      let value = '';
      for (;;) {
        if (j >= sql.length) {
          problems.push(`unterminated ${ch === '"' ? 'identifier' : 'literal'} at ${i}`);
          return tokens;
        }
        if (sql[j] === ch) {
          if (sql[j + 1] === ch) {
            value += ch;
            j += 2;
            continue;
          }
          break;
        }
        value += sql[j];
        j++;
      }
      tokens.push({ kind: ch === '"' ? 'ident' : 'literal', value, at: i });
      i = j + 1;
    } else if (ch === '$') {
      const m = matchAt(PARAM, sql, i);
      if (!m) {
        problems.push(`dollar quote or bare $ at ${i}`);
        i++;
      } else {
        tokens.push({ kind: 'param', at: i });
        i += m.length;
      }
    } else if (sql.startsWith('--', i) || sql.startsWith('/*', i)) {
      problems.push(`comment at ${i}`);
      i += 2;
    } else if (ch === ';') {
      problems.push(`statement separator at ${i}`);
      i++;
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = matchAt(WORD, sql, i)!;
      tokens.push({ kind: 'word', value: m, at: i });
      i += m.length;
    } else if (/[0-9]/.test(ch)) {
      const m = matchAt(NUMBER, sql, i)!;
      tokens.push({ kind: 'number', at: i });
      i += m.length;
    } else if ('(),.*=<>!~@&|-+:[]'.includes(ch)) {
      tokens.push({ kind: 'punct', value: ch, at: i });
      i++;
    } else {
      problems.push(`unexpected character ${JSON.stringify(ch)} at ${i}`);
      i++;
    }
  }
  return tokens;
}

export interface AuditOptions {
  relations: ReadonlySet<string>;
  functions: ReadonlySet<string>;
  vocabulary: Vocabulary;
}

/** The problems found in one statement (empty when it is clean). */
export function auditStatement(sql: string, opts: AuditOptions): string[] {
  const problems: string[] = [];
  const tokens = tokenize(sql, problems);
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'word') {
      const w = t.value.toLowerCase();
      if (DENIED.has(w)) problems.push(`denied word ${t.value} at ${t.at}`);
      else if (!opts.vocabulary.words.has(w)) problems.push(`unexpected word ${t.value} at ${t.at}`);
    }
    if (t.kind === 'literal' && !opts.vocabulary.literals.has(t.value))
      problems.push(`unexpected literal '${t.value}' at ${t.at}`);
    if (t.kind !== 'ident') continue;
    const next = tokens[k + 1];
    const after = tokens[k + 2];
    // "public"."name": a relation (FROM, JOIN, NULL::"public"."t") or a function call.
    if (t.value === 'public' && next?.kind === 'punct' && next.value === '.' && after?.kind === 'ident') {
      const prev = tokens[k - 1];
      const intoTarget = prev?.kind === 'word' && prev.value.toUpperCase() === 'INTO';
      const called =
        !intoTarget && tokens[k + 3]?.kind === 'punct' && (tokens[k + 3] as { value: string }).value === '(';
      const allowed = called ? opts.functions : opts.relations;
      if (!allowed.has(after.value))
        problems.push(`${called ? 'function' : 'relation'} outside the registry: ${after.value}`);
      k += 2;
      continue;
    }
    // Any other quoted name directly called is a function the builder never writes.
    if (next?.kind === 'punct' && next.value === '(') problems.push(`quoted function call "${t.value}" at ${t.at}`);
  }
  return problems;
}
