import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import {
  MAX_NESTING,
  OPERATORS,
  parseFilterParam,
  parseLogicParam,
  parseOrder,
  parsePrefer,
  parseRangeHeader,
  parseRequest,
  parseSelect,
  type RawRequest,
} from './parse.js';

function request(
  path: string,
  query: Record<string, string> | [string, string][] = [],
  extra: Partial<RawRequest> = {},
) {
  return parseRequest({
    method: 'GET',
    path,
    query: Array.isArray(query) ? query : Object.entries(query),
    headers: {},
    ...extra,
  });
}

function parseFailure(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected a parse error');
}

describe('select', () => {
  it('defaults to every column', () => {
    expect(request('/people').select).toEqual([{ kind: 'star' }]);
    expect(parseSelect('')).toEqual([{ kind: 'star' }]);
  });

  it('reads columns, aliases, casts and JSON paths', () => {
    expect(parseSelect('id,title:name,id::text,app:labels->>app,labels->a->0')).toEqual([
      { kind: 'column', field: { name: 'id', json: [] }, alias: undefined, cast: undefined },
      { kind: 'column', field: { name: 'name', json: [] }, alias: 'title', cast: undefined },
      { kind: 'column', field: { name: 'id', json: [] }, alias: undefined, cast: 'text' },
      { kind: 'column', field: { name: 'labels', json: [{ op: '->>', key: 'app' }] }, alias: 'app', cast: undefined },
      {
        kind: 'column',
        field: {
          name: 'labels',
          json: [
            { op: '->', key: 'a' },
            { op: '->', key: '0' },
          ],
        },
        alias: undefined,
        cast: undefined,
      },
    ]);
  });

  it('reads embeds with aliases, hints, join types and nesting', () => {
    const [embed] = parseSelect('team:team_id!fk_name!inner(id,members:people(name,agents(*)))');
    expect(embed).toMatchObject({
      kind: 'embed',
      target: 'team_id',
      alias: 'team',
      hint: 'fk_name',
      joinType: 'inner',
      spread: false,
    });
    const inner = (embed as { select: unknown[] }).select;
    expect(inner[1]).toMatchObject({ kind: 'embed', target: 'people', alias: 'members' });
    expect((inner[1] as { select: unknown[] }).select[1]).toMatchObject({
      kind: 'embed',
      target: 'agents',
      select: [{ kind: 'star' }],
    });
  });

  it('reads spread embeds and empty embeds', () => {
    expect(parseSelect('...person_id(name)')[0]).toMatchObject({ kind: 'embed', spread: true, target: 'person_id' });
    expect(parseSelect('people()')[0]).toMatchObject({ kind: 'embed', select: [] });
  });

  it('keeps dashes inside names but not arrows', () => {
    expect(parseSelect('my-col->>x')[0]).toMatchObject({ field: { name: 'my-col', json: [{ op: '->>', key: 'x' }] } });
  });

  it('accepts double-quoted names', () => {
    expect(parseSelect('"a,b":name')[0]).toMatchObject({ alias: 'a,b' });
  });

  it('refuses malformed selects with the position', () => {
    const e = parseFailure(() => parseSelect('id,(name'));
    expect(e.status).toBe(400);
    expect(e.code).toBe('PGRST100');
    expect(e.message).toBe('"failed to parse select parameter (id,(name)" (line 1, column 4)');
    expect(parseFailure(() => parseSelect('people(id')).code).toBe('PGRST100');
    expect(parseFailure(() => parseSelect('a,')).code).toBe('PGRST100');
    expect(parseFailure(() => parseSelect('...name')).code).toBe('PGRST100');
  });
});

describe('filters', () => {
  it.each(OPERATORS.filter((op) => op !== 'in' && op !== 'is'))('parses the %s operator', (op) => {
    expect(parseFilterParam('name', `${op}.x`)).toMatchObject({ kind: 'filter', op, negated: false, value: 'x' });
    expect(parseFilterParam('name', `not.${op}.x`)).toMatchObject({ op, negated: true });
  });

  it('keeps the whole value, dots and commas included', () => {
    expect(parseFilterParam('name', 'eq.a.b,c(d)').value).toBe('a.b,c(d)');
    expect(parseFilterParam('name', 'like.*abc*').value).toBe('*abc*');
  });

  it('parses in lists with quoted items', () => {
    expect(parseFilterParam('id', 'in.(1,"a,b","c\\"d",)').value).toEqual(['1', 'a,b', 'c"d', '']);
    expect(parseFilterParam('id', 'in.()').value).toEqual([]);
  });

  it('parses is with its fixed values only', () => {
    for (const v of ['null', 'true', 'false', 'unknown']) expect(parseFilterParam('x', `is.${v}`).value).toBe(v);
    expect(parseFilterParam('x', 'is.NULL').value).toBe('null');
    expect(parseFailure(() => parseFilterParam('x', 'is.maybe')).code).toBe('PGRST100');
    // PostgREST 12.0.2 has no not_null: the error points at the first character no value continues with.
    const e = parseFailure(() => parseFilterParam('x', 'is.not_null'));
    expect(e.message).toBe('"failed to parse filter (is.not_null)" (line 1, column 5)');
    expect(e.details).toBe('unexpected "o" expecting null or trilean value (unknown, true, false)');
  });

  it('parses quantifiers and full-text configurations', () => {
    expect(parseFilterParam('name', 'like(any).{a*,"b,c"}')).toMatchObject({
      op: 'like',
      quantifier: 'any',
      value: ['a*', 'b,c'],
    });
    expect(parseFilterParam('name', 'eq(all).{x}')).toMatchObject({ quantifier: 'all', value: ['x'] });
    expect(parseFilterParam('doc', 'fts(english).cat')).toMatchObject({
      op: 'fts',
      ftsConfig: 'english',
      value: 'cat',
    });
  });

  it('parses filters on JSON paths', () => {
    expect(parseFilterParam('labels->>app', 'eq.web').field).toEqual({
      name: 'labels',
      json: [{ op: '->>', key: 'app' }],
    });
  });

  it('refuses unknown operators with PostgREST’s message', () => {
    const e = parseFailure(() => parseFilterParam('name', 'equals.5'));
    expect(e.message).toBe('"failed to parse filter (equals.5)" (line 1, column 1)');
    expect(e.details).toBe('unexpected "e" expecting "not" or operator (eq, gt, ...)');
    expect(parseFailure(() => parseFilterParam('name', 'eq')).code).toBe('PGRST100');
    expect(parseFailure(() => parseFilterParam('name', 'not.nope.1')).details).toBe(
      'unexpected "n" expecting operator (eq, gt, ...)',
    );
    expect(parseFailure(() => parseFilterParam('name', 'in.(a,b')).code).toBe('PGRST100');
    expect(parseFailure(() => parseFilterParam('name', 'in.a,b')).code).toBe('PGRST100');
  });
});

describe('logic trees', () => {
  it('parses nested or/and with negation', () => {
    const tree = parseLogicParam('or', '(a.eq.1,and(b.gt.2,c.not.is.null),not.or(d.in.(x,"y,z"),e.like.*q*))');
    expect(tree).toMatchObject({ kind: 'logic', op: 'or', negated: false });
    expect(tree.children).toHaveLength(3);
    expect(tree.children[1]).toMatchObject({
      kind: 'logic',
      op: 'and',
      children: [{ op: 'gt' }, { op: 'is', negated: true }],
    });
    expect(tree.children[2]).toMatchObject({
      kind: 'logic',
      op: 'or',
      negated: true,
      children: [
        { op: 'in', value: ['x', 'y,z'] },
        { op: 'like', value: '*q*' },
      ],
    });
  });

  it('ends unquoted values at commas and parentheses, quoted ones at the quote', () => {
    const tree = parseLogicParam('and', '(name.eq."a,b)",title.eq.plain)');
    expect(tree.children.map((c) => (c as { value: unknown }).value)).toEqual(['a,b)', 'plain']);
  });

  it('accepts negated keys', () => {
    expect(parseLogicParam('not.and', '(a.eq.1)')).toMatchObject({ op: 'and', negated: true });
  });

  it('refuses malformed trees', () => {
    for (const bad of ['a.eq.1', '(a.eq.1', '(a.eq.1,)', '()', '(a.zz.1)', '(a.eq.1))']) {
      expect(parseFailure(() => parseLogicParam('or', bad)).code).toBe('PGRST100');
    }
  });
});

describe('limits', () => {
  it('refuses embeds and logic trees nested too deeply', () => {
    const deepSelect = 'a('.repeat(MAX_NESTING + 1) + 'id' + ')'.repeat(MAX_NESTING + 1);
    expect(parseFailure(() => parseSelect(deepSelect)).details).toBe(
      `embedded resources may be nested at most ${MAX_NESTING} levels deep`,
    );
    expect(parseSelect('a('.repeat(MAX_NESTING) + 'id' + ')'.repeat(MAX_NESTING))).toHaveLength(1);
    const deepLogic = '(' + 'and('.repeat(MAX_NESTING) + 'a.eq.1' + ')'.repeat(MAX_NESTING + 1);
    expect(parseFailure(() => parseLogicParam('or', deepLogic)).details).toBe(
      `logic trees may be nested at most ${MAX_NESTING} levels deep`,
    );
  });
});

describe('order', () => {
  it('parses several terms with directions and null placement', () => {
    expect(parseOrder('name.desc.nullslast,labels->>app,id.asc.nullsfirst')).toEqual([
      { field: { name: 'name', json: [] }, direction: 'desc', nulls: 'last' },
      { field: { name: 'labels', json: [{ op: '->>', key: 'app' }] } },
      { field: { name: 'id', json: [] }, direction: 'asc', nulls: 'first' },
    ]);
  });

  it('refuses unknown modifiers', () => {
    expect(parseFailure(() => parseOrder('name.up')).code).toBe('PGRST100');
    expect(parseFailure(() => parseOrder('name,')).code).toBe('PGRST100');
  });
});

describe('requests', () => {
  it('routes filters, order and limits to the top level or to embeds', () => {
    const req = request('/people', [
      ['select', 'id,teams(name)'],
      ['name', 'eq.x'],
      ['teams.name', 'like.a*'],
      ['teams.order', 'name.desc'],
      ['teams.limit', '2'],
      ['teams.or', '(name.eq.a,name.eq.b)'],
      ['limit', '10'],
      ['offset', '5'],
      ['order', 'id'],
    ]);
    expect(req.target).toEqual({ kind: 'relation', name: 'people' });
    const top = req.nodes.get('')!;
    expect(top).toMatchObject({ limit: 10, offset: 5, conditions: [{ op: 'eq' }] });
    const teams = req.nodes.get('teams')!;
    expect(teams).toMatchObject({ path: ['teams'], limit: 2, conditions: [{ op: 'like' }, { kind: 'logic' }] });
    expect(teams.order).toHaveLength(1);
  });

  it('keeps rpc parameters raw for the plan to sort into arguments and filters', () => {
    const req = request('/rpc/find', [
      ['q', 'abc'],
      ['limit', '3'],
    ]);
    expect(req.target).toEqual({ kind: 'rpc', name: 'find' });
    expect(req.rpcParams).toEqual([['q', 'abc']]);
  });

  it('reads columns and on_conflict lists', () => {
    const req = request('/people', { columns: 'id,name', on_conflict: 'email' }, { method: 'POST' });
    expect(req.columns).toEqual(['id', 'name']);
    expect(req.onConflict).toEqual(['email']);
  });

  it('ignores limits that are not integers and refuses negative ones, as PostgREST does', () => {
    expect(request('/people', { limit: 'abc', offset: 'x' }).nodes.get('')).toMatchObject({
      limit: undefined,
      offset: undefined,
    });
    const e = parseFailure(() => request('/people', { limit: '-1' }));
    expect(e).toMatchObject({
      status: 416,
      code: 'PGRST103',
      details: 'Limit should be greater than or equal to zero.',
    });
  });

  it('refuses bad paths and methods', () => {
    expect(parseFailure(() => request('/a/b/c')).status).toBe(404);
    expect(parseFailure(() => request('/people', [], { method: 'PUT' })).status).toBe(405);
  });

  it('detects the singular Accept header', () => {
    expect(request('/people', [], { headers: { accept: 'application/vnd.pgrst.object+json' } }).singular).toBe(true);
    expect(request('/people', [], { headers: { accept: 'application/json' } }).singular).toBe(false);
  });
});

describe('headers', () => {
  it('reads Prefer tokens and lists the ones it does not understand', () => {
    expect(parsePrefer('return=representation, count=exact,resolution=merge-duplicates,bogus=1')).toEqual({
      return: 'representation',
      count: 'exact',
      resolution: 'merge-duplicates',
      invalid: ['bogus=1'],
    });
  });

  it('reads Range headers and refuses inverted ones', () => {
    expect(parseRangeHeader('0-24')).toEqual({ from: 0, to: 24 });
    expect(parseRangeHeader('10-')).toEqual({ from: 10, to: undefined });
    expect(parseRangeHeader('junk')).toBeUndefined();
    expect(parseFailure(() => parseRangeHeader('5-1')).status).toBe(416);
  });
});
