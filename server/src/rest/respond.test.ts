import { describe, expect, it } from 'vitest';
import type { FunctionDef } from '../db/introspect.js';
import { ApiError } from './errors.js';
import type { Plan, ReadNode } from './plan.js';
import { respond } from './respond.js';

const node: ReadNode = { relation: 'people', alias: 'people_1', projection: [], conditions: [], order: [] };
const base = { access: [], singular: false, count: false };
const read = (over: Partial<Extract<Plan, { kind: 'read' }>> = {}): Plan => ({
  ...base,
  kind: 'read',
  root: node,
  offset: 0,
  ...over,
});
const fn = (over: Partial<FunctionDef>): FunctionDef => ({
  name: 'f',
  args: [],
  returnsSet: false,
  returnsRelation: null,
  outColumns: [],
  returnType: 'integer',
  volatile: false,
  ...over,
});

function failure(f: () => unknown): ApiError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected an error');
}

describe('respond: reads', () => {
  it('gives the page range without a count and the total with one', () => {
    expect(respond(read(), { total: null, page_total: 3, body: '[1,2,3]' }, 'GET')).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-range': '0-2/*' },
      body: '[1,2,3]',
    });
    const counted = respond(read({ count: true, offset: 10 }), { total: 25, page_total: 5, body: '[]' }, 'GET');
    expect(counted).toMatchObject({ status: 206, headers: { 'content-range': '10-14/25' } });
  });

  it('answers an empty page with */total, 416 past the end, and no body to HEAD', () => {
    expect(
      respond(read({ count: true }), { total: 0, page_total: 0, body: '[]' }, 'GET').headers['content-range'],
    ).toBe('*/0');
    expect(respond(read({ count: true, offset: 12 }), { total: 12, page_total: 0, body: '[]' }, 'GET')).toMatchObject({
      status: 206,
      headers: { 'content-range': '*/12' },
    });
    const e = failure(() =>
      respond(read({ count: true, offset: 20 }), { total: 12, page_total: 0, body: '[]' }, 'GET'),
    );
    expect(e).toMatchObject({
      status: 416,
      code: 'PGRST103',
      details: 'An offset of 20 was requested, but there are only 12 rows.',
    });
    expect(e.headers['content-range']).toBe('*/12');
    expect(respond(read(), { total: null, page_total: 1, body: '[{}]' }, 'HEAD').body).toBeNull();
  });

  it('unwraps exactly one row for the singular media type, else 406', () => {
    const one = respond(read({ singular: true }), { total: null, page_total: 1, body: '[{"a":1}]' }, 'GET');
    expect(one).toMatchObject({
      status: 200,
      body: '{"a":1}',
      headers: { 'content-type': 'application/vnd.pgrst.object+json; charset=utf-8' },
    });
    const e = failure(() => respond(read({ singular: true }), { total: null, page_total: 2, body: '[{},{}]' }, 'GET'));
    expect(e).toMatchObject({ status: 406, code: 'PGRST116', details: 'The result contains 2 rows' });
  });
});

describe('respond: writes', () => {
  const insert = (over: object = {}): Plan =>
    ({
      ...base,
      kind: 'insert',
      relation: 'people',
      columns: ['id'],
      payload: '[]',
      rowCount: 1,
      returning: null,
      ...over,
    }) as Plan;

  it('answers 201 to inserts, with the rows only for return=representation', () => {
    expect(respond(insert(), { total: null, page_total: 1, body: null }, 'POST')).toMatchObject({
      status: 201,
      body: null,
      headers: { 'content-range': '*/*' },
    });
    expect(
      respond(insert({ returning: node, count: true }), { total: null, page_total: 1, body: '[{"id":1}]' }, 'POST'),
    ).toMatchObject({ status: 201, body: '[{"id":1}]', headers: { 'content-range': '*/1' } });
  });

  it('answers 200 to an upsert that only updated', () => {
    const upsert = insert({ onConflict: { columns: ['id'], action: 'merge' } });
    expect(respond(upsert, { total: null, page_total: 1, body: null, inserted: 0 }, 'POST').status).toBe(200);
    expect(respond(upsert, { total: null, page_total: 1, body: null, inserted: 1 }, 'POST').status).toBe(201);
  });

  it('answers 204 to updates and deletes unless the rows are asked for', () => {
    const update: Plan = {
      ...base,
      kind: 'update',
      relation: 'people',
      alias: 'p',
      columns: ['name'],
      payload: '{}',
      conditions: [],
      returning: null,
    };
    expect(respond(update, { total: null, page_total: 2, body: null }, 'PATCH')).toMatchObject({
      status: 204,
      headers: { 'content-range': '0-1/*' },
    });
    const del: Plan = { ...base, kind: 'delete', relation: 'people', alias: 'p', conditions: [], returning: node };
    expect(respond(del, { total: null, page_total: 2, body: '[{},{}]' }, 'DELETE')).toMatchObject({
      status: 200,
      headers: { 'content-range': '*/*' },
    });
  });
});

describe('respond: functions', () => {
  const rpc = (f: FunctionDef, over: object = {}): Plan =>
    ({ ...base, kind: 'rpc', fn: f, args: '{}', argNames: [], root: null, readOnly: true, offset: 0, ...over }) as Plan;

  it('returns a scalar as the value itself and a set of scalars as an array', () => {
    expect(respond(rpc(fn({})), { total: null, page_total: 1, body: '[3]' }, 'GET')).toMatchObject({
      status: 200,
      body: '3',
      headers: { 'content-range': '0-0/*' },
    });
    expect(respond(rpc(fn({ returnsSet: true })), { total: null, page_total: 2, body: '[1,2]' }, 'GET').body).toBe(
      '[1,2]',
    );
  });

  it('answers 204 for void functions', () => {
    expect(respond(rpc(fn({ returnType: 'void' })), { total: null, page_total: 1, body: '[null]' }, 'POST')).toEqual({
      status: 204,
      headers: {},
      body: null,
    });
  });
});
