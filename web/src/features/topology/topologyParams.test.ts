import { describe, expect, it } from 'vitest';
import {
  ancestorIds,
  incidentsUrl,
  insightsUrl,
  logsUrl,
  readTopologyView,
  serverLabels,
  serverList,
  topologyQuery,
  writeTopologyView,
  zoomInUrl,
} from './topologyParams';

const params = (qs: string) => new URLSearchParams(qs);

describe('topology query string', () => {
  it('reads every parameter of the page, with hidden components shown by default', () => {
    const view = readTopologyView(
      params(
        'labels=env%3Dprod:1,tier%3Dweb:-1&team=sre:1&type=Service:1,Pod:-1&status=unhealthy:1&refererId=r1' +
          '&sortBy=name&sortOrder=asc&agent_id=local',
      ),
    );
    expect(view).toEqual({
      labels: { 'env=prod': 1, 'tier=web': -1 },
      team: { sre: 1 },
      type: { Service: 1, Pod: -1 },
      status: { unhealthy: 1 },
      refererId: 'r1',
      sortBy: 'name',
      sortOrder: 'asc',
      agentId: 'local',
      showHiddenComponents: true,
    });
    expect(readTopologyView(params('showHiddenComponents=false&agent_id=all&sortOrder=sideways'))).toMatchObject({
      showHiddenComponents: false,
      agentId: undefined,
      sortOrder: undefined,
      sortBy: undefined,
    });
  });

  it('writes changes back and drops defaults and empty filters', () => {
    const next = writeTopologyView(params('type=Pod:1&showHiddenComponents=false&x=1'), {
      type: {},
      team: { sre: -1 },
      showHiddenComponents: true,
      agentId: 'all',
    });
    expect(next.toString()).toBe('x=1&team=sre%3A-1');
    expect(readTopologyView(writeTopologyView(params(''), { showHiddenComponents: false })).showHiddenComponents).toBe(
      false,
    );
  });

  it('turns tri-state filters into the server’s include/exclude lists and label pairs', () => {
    expect(serverList({ a: 1, b: -1, c: 1 })).toBe('a,c,!b');
    expect(serverList({})).toBeUndefined();
    expect(serverLabels({ 'env=prod': 1, 'tier=web': -1, broken: 1 })).toBe('env=prod,tier!=web');
  });

  it('builds the card query: flattened when a type is chosen, hidden from the switch', () => {
    const view = readTopologyView(params('type=Pod:1&status=healthy:-1&agent_id=local'));
    expect(topologyQuery('c1', view, { sortBy: 'status', sortOrder: 'desc' })).toEqual({
      id: 'c1',
      type: 'Pod',
      status: '!healthy',
      sortBy: 'status',
      sortOrder: 'desc',
      flatten: 'true',
      hidden: 'true',
      agent_id: 'local',
    });
    const noType = topologyQuery(undefined, readTopologyView(params('type=Pod:-1&showHiddenComponents=false')), {
      sortBy: 'name',
      sortOrder: 'asc',
    });
    expect(noType.flatten).toBeUndefined();
    expect(noType.hidden).toBe('false');
    expect(noType.id).toBeUndefined();
  });
});

describe('Zoom In', () => {
  it('carries the query along without refererId and status, and refers back to the component left', () => {
    const current = params('team=sre:1&status=unhealthy:1&refererId=old&sortBy=name');
    expect(zoomInUrl('child', current, 'parent')).toBe('/topology/child?team=sre%3A1&sortBy=name&refererId=parent');
    expect(zoomInUrl('root', current)).toBe('/topology/root?team=sre%3A1&sortBy=name');
    expect(zoomInUrl('same', params(''), 'same')).toBe('/topology/same');
    // The current query is not changed.
    expect(current.get('status')).toBe('unhealthy:1');
  });

  it('reads ancestors from the path, root first', () => {
    expect(ancestorIds('a.b.c')).toEqual(['a', 'b', 'c']);
    expect(ancestorIds('')).toEqual([]);
    expect(ancestorIds(null)).toEqual([]);
  });
});

describe('card links', () => {
  it('offers View Logs only with an external id and the logs feature on', () => {
    expect(logsUrl({ id: 'c1', external_id: 'pod/x' }, true)).toBe('/logs?topologyId=c1');
    expect(logsUrl({ id: 'c1', external_id: null }, true)).toBeNull();
    expect(logsUrl({ id: 'c1', external_id: 'pod/x' }, false)).toBeNull();
    expect(logsUrl({ id: 'c1', external_id: null, logs: [{ name: 'app' }] }, true)).toBe('/logs?topologyId=c1');
    expect(logsUrl({ id: 'c1', external_id: null, logs: [] }, true)).toBeNull();
  });

  it('links incidents and insights by component, type and severity', () => {
    expect(incidentsUrl('c1')).toBe('/incidents?component=c1');
    expect(insightsUrl('c1', { type: 'security', severity: 'high' })).toBe(
      '/catalog/insights?component=c1&type=security&severity=high',
    );
  });
});
