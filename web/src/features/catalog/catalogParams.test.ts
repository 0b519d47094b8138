import { describe, expect, it } from 'vitest';
import {
  drillIntoSummaryRow,
  isSummaryView,
  readCatalogView,
  readChangesView,
  readInsightsView,
  readSelectedLines,
  recursiveMode,
  summaryFilter,
  toggleSelectedLine,
  triStateToList,
  writeCatalogView,
  writeChangesView,
} from './catalogParams';

describe('catalog list parameters', () => {
  it('fills in the defaults: grouped by config_class,type, sorted by type ascending', () => {
    const v = readCatalogView(new URLSearchParams(''));
    expect(v.groupBy).toEqual(['config_class', 'type']);
    expect(v.sortBy).toBe('type');
    expect(v.sortOrder).toBe('asc');
    expect(v.pageIndex).toBe(0);
    expect(isSummaryView(v)).toBe(true);
  });

  it('reads every parameter of the list', () => {
    const v = readCatalogView(
      new URLSearchParams(
        'configType=Kubernetes::Pod&search=web&labels=app%3Dweb:1,env%3Ddev:-1&status=Running:1&health=unhealthy:1&groupBy=type&sortBy=name&sortOrder=desc&groupByProp=x&pageIndex=2&pageSize=25',
      ),
    );
    expect(v).toMatchObject({
      configType: 'Kubernetes::Pod',
      search: 'web',
      labels: { 'app=web': 1, 'env=dev': -1 },
      status: { Running: 1 },
      health: { unhealthy: 1 },
      groupBy: ['type'],
      sortBy: 'name',
      sortOrder: 'desc',
      groupByProp: 'x',
      pageIndex: 2,
      pageSize: 25,
    });
    expect(isSummaryView(v)).toBe(false);
    expect(isSummaryView({ configType: undefined, search: 'x' })).toBe(false);
  });

  it('drops defaults when writing and returns to the first page on a filter change', () => {
    const p = writeCatalogView(new URLSearchParams('pageIndex=3&groupBy=type'), {
      groupBy: ['config_class', 'type'],
      sortBy: 'type',
      search: 'abc',
    });
    expect(p.toString()).toBe('search=abc');
    expect(writeCatalogView(new URLSearchParams(''), { pageIndex: 2 }).get('pageIndex')).toBe('2');
  });

  it('drills into a summary row: configType and labels set, groupBy cleared', () => {
    const change = drillIntoSummaryRow({ config_class: 'File', type: 'File::Car', namespace: 'prod', count: 3 }, [
      'config_class',
      'type',
      'namespace',
    ]);
    expect(change).toEqual({ groupBy: undefined, configType: 'File::Car', labels: { 'namespace=prod': 1 } });
    const p = writeCatalogView(new URLSearchParams('groupBy=config_class,type,namespace'), change);
    expect(p.get('groupBy')).toBeNull();
    expect(p.get('configType')).toBe('File::Car');
    expect(p.get('labels')).toBe('namespace=prod:1');
  });

  it('turns label filters into the summary filter: tags or labels by where the entry was seen', () => {
    expect(summaryFilter({ 'a=1': 1, 'b=2': -1, 'b=3': -1, bogus: 1 }, new Set(['a=1']))).toEqual({
      'tags.a': '1',
      'labels.b': '!2,!3',
    });
  });

  it('drills into a tag grouping as a label filter', () => {
    expect(drillIntoSummaryRow({ type: 'Pod', 'tags.namespace': 'prod' }, ['type', 'tags.namespace'])).toMatchObject({
      configType: 'Pod',
      labels: { 'namespace=prod': 1 },
    });
  });
});

describe('changes parameters', () => {
  it('defaults to page 1 of 200 sorted by created_at descending', () => {
    const v = readChangesView(new URLSearchParams(''));
    expect(v).toMatchObject({ page: 1, pageSize: 200, sortBy: 'created_at', sortDirection: 'desc', tags: [] });
  });

  it('reads tags with their exclude flag and writes them back', () => {
    const v = readChangesView(new URLSearchParams('tags=cluster%3Dprod:1,namespace%3Dkube-system:-1&upstream=true'));
    expect(v.tags).toEqual([
      { key: 'cluster', value: 'prod', exclude: false },
      { key: 'namespace', value: 'kube-system', exclude: true },
    ]);
    expect(recursiveMode(v)).toBe('upstream');
    const p = writeChangesView(new URLSearchParams('page=4'), { tags: v.tags.slice(0, 1), createdBy: 'x' });
    expect(p.get('tags')).toBe('cluster=prod:1');
    expect(p.get('created_by')).toBe('x');
    expect(p.get('page')).toBeNull();
  });

  it('maps the upstream/downstream toggles to the recursion', () => {
    expect(recursiveMode({ upstream: false, downstream: false })).toBe('none');
    expect(recursiveMode({ upstream: true, downstream: true })).toBe('all');
    expect(recursiveMode({ upstream: false, downstream: true })).toBe('downstream');
  });

  it('sends tri-state filters as a comma list with ! for exclusions', () => {
    expect(triStateToList({ diff: 1, Pulled: -1 })).toBe('diff,!Pulled');
    expect(triStateToList({})).toBeUndefined();
  });
});

describe('insights and the config tab', () => {
  it('pages insights 50 at a time', () => {
    expect(readInsightsView(new URLSearchParams('component=c1&severity=high'))).toMatchObject({
      component: 'c1',
      severity: 'high',
      pageSize: 50,
    });
  });

  it('keeps selected lines in the repeated selected parameter', () => {
    let p = new URLSearchParams('selected=5&selected=2&selected=x');
    expect(readSelectedLines(p)).toEqual([2, 5]);
    p = toggleSelectedLine(p, 3);
    expect(p.getAll('selected')).toEqual(['2', '3', '5']);
    p = toggleSelectedLine(p, 2);
    expect(p.getAll('selected')).toEqual(['3', '5']);
  });
});

describe('catalog Agent filter', () => {
  it('reads the agent from the URL and leaves the default out', () => {
    expect(readCatalogView(new URLSearchParams()).agent).toBe('all');
    expect(readCatalogView(new URLSearchParams('agent=local')).agent).toBe('local');
    expect(writeCatalogView(new URLSearchParams('agent=local&pageIndex=2'), { agent: 'all' }).toString()).toBe('');
  });
});
