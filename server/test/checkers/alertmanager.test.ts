// The alertmanager checker against a loopback HTTP server answering GET /api/v2/alerts with
// Alertmanager v2 `GettableAlerts` JSON (firing, silenced and inhibited alerts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertmanagerChecker, alertName } from '../../src/health/checkers/alertmanager.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort, loopbackServer, sendJson, type LoopbackServer } from './ports.js';

function alert(
  labels: Record<string, string>,
  status: { state: string; silencedBy?: string[]; inhibitedBy?: string[] } = { state: 'active' },
) {
  return {
    annotations: { summary: `${labels.alertname} summary`, description: `${labels.alertname} is firing` },
    endsAt: '2030-01-01T00:04:00.000Z',
    fingerprint: Buffer.from(JSON.stringify(labels)).toString('hex').slice(0, 16),
    receivers: [{ name: 'default' }],
    startsAt: '2030-01-01T00:00:00.000Z',
    status: { inhibitedBy: [], silencedBy: [], ...status },
    updatedAt: '2030-01-01T00:01:00.000Z',
    generatorURL: 'http://prometheus:9090/graph?g0.expr=up',
    labels,
  };
}

const ALERTS = [
  alert({
    alertname: 'HighCPU',
    severity: 'critical',
    namespace: 'prod',
    pod: 'api-1',
    container: 'api',
    job: 'kubelet',
  }),
  alert({ alertname: 'DiskFull', severity: 'warning', node: 'node-1' }),
  alert({ alertname: 'Watchdog', severity: 'none' }),
  alert(
    { alertname: 'HighMemory', severity: 'critical', namespace: 'prod' },
    { state: 'suppressed', silencedBy: ['d3c1'] },
  ),
  alert(
    { alertname: 'KubePodNotReady', severity: 'warning', namespace: 'dev' },
    { state: 'suppressed', inhibitedBy: ['ab12'] },
  ),
];

let am: LoopbackServer;
let mode: 'alerts' | 'none' | 'error' | 'html' = 'alerts';

beforeAll(async () => {
  am = await loopbackServer((req, _body, res) => {
    if (!req.url?.startsWith('/api/v2/alerts'))
      return sendJson(res, 404, { code: 404, message: `path ${req.url} was not found` });
    if (mode === 'error') return sendJson(res, 400, { code: 400, message: 'bad matcher format: alertname=~"("' });
    if (mode === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html>login</html>');
    }
    sendJson(res, 200, mode === 'none' ? [] : ALERTS);
  });
});
afterAll(() => am.close());

function spec(fields: Record<string, unknown>) {
  return alertmanagerChecker.schema.parse({ name: 'am', ...fields });
}

describe('alertmanager', () => {
  it('accepts canary-checker fields', () => {
    const s = spec({
      url: 'http://alertmanager:9093',
      alerts: ['.*'],
      filters: { severity: 'critical' },
      exclude_filters: { namespace: 'dev' },
      ignore: ['Watchdog'],
    });
    expect(s.exclude_filters).toEqual({ namespace: 'dev' });
    expect(alertName({ alertname: 'HighCPU', namespace: 'prod', pod: 'api-1', container: 'api', job: 'kubelet' })).toBe(
      'HighCPU/prod/api-1/api',
    );
  });

  it('fails listing firing alerts, skipping silenced and inhibited ones, and sends the filters', async () => {
    mode = 'alerts';
    const r = await alertmanagerChecker.run(spec({ url: am.url, ignore: ['Watchdog'] }), testCheckContext());
    expect(r).toMatchObject({
      pass: false,
      error: '2 alerts firing: HighCPU/prod/api-1/api (severity=critical), DiskFull/node-1 (severity=warning)',
    });
    const alerts = (r.results as { alerts: { name: string; message: string; labels: Record<string, string> }[] })
      .alerts;
    expect(alerts.map((a) => a.name)).toEqual(['HighCPU/prod/api-1/api', 'DiskFull/node-1']);
    expect(alerts[0]).toMatchObject({ message: 'HighCPU is firing', labels: { severity: 'critical' } });
    const sent = new URL(am.requests.at(-1)!.url, 'http://x');
    expect(sent.pathname).toBe('/api/v2/alerts');
    expect(sent.searchParams.get('silenced')).toBe('false');
    expect(sent.searchParams.getAll('filter')).toEqual(['alertname!~"Watchdog"']);
  });

  it('narrows by alert names (any of) and label filters (all of, regex), excluding by label', async () => {
    mode = 'alerts';
    const byName = await alertmanagerChecker.run(
      spec({ url: am.url, alerts: ['Disk.*', 'Watchdog'] }),
      testCheckContext(),
    );
    expect(byName).toMatchObject({
      pass: false,
      error: '2 alerts firing: DiskFull/node-1 (severity=warning), Watchdog (severity=none)',
    });
    const byLabel = await alertmanagerChecker.run(
      spec({ url: am.url, filters: { severity: 'crit.*' } }),
      testCheckContext(),
    );
    expect(byLabel.error).toBe('1 alert firing: HighCPU/prod/api-1/api (severity=critical)');
    expect(new URL(am.requests.at(-1)!.url, 'http://x').searchParams.getAll('filter')).toEqual(['severity=~"crit.*"']);
    const excluded = await alertmanagerChecker.run(
      spec({ url: am.url, filters: { severity: 'critical' }, exclude_filters: { namespace: 'prod' } }),
      testCheckContext(),
    );
    expect(excluded).toMatchObject({
      pass: true,
      message: 'no matching alerts firing',
      results: { alerts: [] },
    });
    // Anchored like Alertmanager: "CPU" does not match "HighCPU".
    expect((await alertmanagerChecker.run(spec({ url: am.url, alerts: ['CPU'] }), testCheckContext())).pass).toBe(true);
  });

  it('passes when nothing fires', async () => {
    mode = 'none';
    expect(await alertmanagerChecker.run(spec({ url: am.url }), testCheckContext())).toMatchObject({
      pass: true,
      results: { alerts: [] },
    });
  });

  it('fails with the API error, a non-Alertmanager answer, or a refused connection; bad regex is invalid', async () => {
    mode = 'error';
    expect(await alertmanagerChecker.run(spec({ url: am.url }), testCheckContext())).toMatchObject({
      pass: false,
      error: 'alertmanager answered HTTP 400: bad matcher format: alertname=~"("',
    });
    mode = 'html';
    expect((await alertmanagerChecker.run(spec({ url: am.url }), testCheckContext())).error).toBe(
      `${am.url} did not answer like Alertmanager v2: <html>login</html>`,
    );
    const port = await closedPort();
    expect(await alertmanagerChecker.run(spec({ url: `http://127.0.0.1:${port}` }), testCheckContext())).toMatchObject({
      pass: false,
      error: `connection refused: 127.0.0.1:${port}`,
    });
    const bad = await alertmanagerChecker.run(spec({ url: am.url, alerts: ['('] }), testCheckContext());
    expect(bad).toMatchObject({ invalid: true });
    expect(bad.error).toMatch(/^alerts "\(" is not a valid regular expression/);
  });
});
