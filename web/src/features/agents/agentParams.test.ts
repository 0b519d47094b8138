import { describe, expect, it } from 'vitest';
import { agentOrder, drawerFromParams, paramsWithDrawer } from './agentParams';

const params = (qs: string) => new URLSearchParams(qs);

describe('the agents query string', () => {
  it('opens the edit drawer for ?id= and the create drawer for ?addAgent=true', () => {
    expect(drawerFromParams(params('id=9f0c'))).toEqual({ mode: 'edit', id: '9f0c' });
    expect(drawerFromParams(params('addAgent=true'))).toEqual({ mode: 'create' });
    expect(drawerFromParams(params('addAgent=false'))).toBeUndefined();
    expect(drawerFromParams(params('pageIndex=2&sortBy=name'))).toBeUndefined();
    expect(drawerFromParams(params('id=&addAgent=true'))).toEqual({ mode: 'create' });
  });

  it('lets an agent id win when both drawers are asked for', () => {
    expect(drawerFromParams(params('addAgent=true&id=a1'))).toEqual({ mode: 'edit', id: 'a1' });
  });

  it('opens and closes drawers keeping the page and the sort', () => {
    const list = params('pageIndex=1&pageSize=25&sortBy=name&sortOrder=asc');
    expect(paramsWithDrawer(list, { mode: 'edit', id: 'a b' }).toString()).toBe(
      'pageIndex=1&pageSize=25&sortBy=name&sortOrder=asc&id=a+b',
    );
    expect(paramsWithDrawer(list, { mode: 'create' }).get('addAgent')).toBe('true');
    const open = params('pageIndex=1&id=a1&addAgent=true');
    expect(paramsWithDrawer(open, undefined).toString()).toBe('pageIndex=1');
    // The input is not changed.
    expect(open.get('id')).toBe('a1');
  });

  it('orders by a known column, Status by last_seen, and newest first otherwise', () => {
    expect(agentOrder('name', 'asc')).toEqual({ column: 'name', ascending: true });
    expect(agentOrder('status', 'desc')).toEqual({ column: 'last_seen', ascending: false });
    expect(agentOrder(undefined, 'asc')).toEqual({ column: 'created_at', ascending: false });
    expect(agentOrder('password;drop', 'asc')).toEqual({ column: 'created_at', ascending: false });
  });
});
