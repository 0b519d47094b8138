// Pure parts of status pages: the overall state, the badge SVG and its colours, the uptime bars.
import { describe, expect, it } from 'vitest';
import { badgeSvg, formatLatency, formatUptime, latencyColor, uptimeColor } from './badge.js';
import { barsStart, percent, sumTallies, BAR_DAYS } from './figures.js';
import { overallState } from './page.js';
import { escapeHtml, renderStatusPage } from './render.js';

describe('overall state', () => {
  it('is the worst of the entries with a state', () => {
    expect(overallState([])).toBe('unknown');
    expect(overallState(['unknown'])).toBe('unknown');
    expect(overallState(['operational', 'unknown'])).toBe('operational');
    expect(overallState(['operational', 'maintenance'])).toBe('maintenance');
    expect(overallState(['operational', 'degraded', 'maintenance'])).toBe('degraded');
    expect(overallState(['operational', 'down'])).toBe('partial_outage');
    expect(overallState(['down', 'down', 'unknown'])).toBe('major_outage');
  });
});

describe('figures', () => {
  it('starts the bars at UTC midnight 89 days back and rounds percentages down', () => {
    expect(barsStart(new Date('2026-11-26T07:00:00Z')).toISOString()).toBe('2026-08-29T00:00:00.000Z');
    expect(percent({ passed: 0, failed: 0 })).toBeNull();
    expect(percent({ passed: 9999, failed: 1 })).toBe(99.99);
    expect(percent({ passed: 2, failed: 1 })).toBe(66.66);
    const a = new Array(BAR_DAYS).fill({ passed: 1, failed: 0 });
    const b = new Array(BAR_DAYS).fill({ passed: 0, failed: 1 });
    expect(sumTallies([a, b])[0]).toEqual({ passed: 1, failed: 1 });
  });
});

describe('badges', () => {
  it('draws label | value with the colour of the state, escaped', () => {
    const svg = badgeSvg('a<b', 'up', 'green');
    expect(svg).toContain('<title>a&lt;b: up</title>');
    expect(svg).toContain('fill="#4c1"');
    expect(svg).not.toContain('a<b');
    expect([uptimeColor(null), uptimeColor(99.95), uptimeColor(99.5), uptimeColor(96), uptimeColor(80)]).toEqual([
      'grey',
      'green',
      'yellowgreen',
      'yellow',
      'red',
    ]);
    expect([latencyColor(150), latencyColor(3000)]).toEqual(['green', 'red']);
    expect([formatUptime(100), formatUptime(99.123), formatUptime(null)]).toEqual(['100%', '99.12%', 'no data']);
    expect(formatLatency(181.6)).toBe('182ms');
  });
});

describe('page HTML', () => {
  it('escapes names and draws a rectangle per run of alike days', () => {
    expect(escapeHtml(`<script>"x"&'`)).toBe('&lt;script&gt;&quot;x&quot;&amp;&#39;');
    const days = [...new Array<number | null>(80).fill(null), ...new Array<number>(9).fill(100), 50];
    const html = renderStatusPage({
      slug: 'x',
      title: 'T <b>',
      description: null,
      logo: null,
      footer: null,
      state: 'partial_outage',
      state_text: 'Partial outage',
      updated_at: '2026-11-26T07:00:00.000Z',
      days_from: '2026-08-29',
      sections: [{ name: 'S', entries: [{ kind: 'check', id: 'i', name: '<img>', state: 'down', uptime: 95, days }] }],
      incidents: [],
      maintenance: [],
    });
    expect(html).toContain('<title>T &lt;b&gt; status</title>');
    expect(html).toContain('<span class="name">&lt;img&gt;</span>');
    expect(html).toContain(
      '<rect class="n" x="0" width="80" height="1"/><rect class="g" x="80" width="9" height="1"/><rect class="b" x="89" width="1" height="1"/>',
    );
    expect(html).toContain('95.00% uptime');
  });
});
