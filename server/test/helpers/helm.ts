// `helm template` for the Opsdeck chart without Helm: values.yaml merged with overrides the way Helm
// merges them (maps deeply, anything else replaced, null removes a key), `.Release` and `.Chart`
// filled in, and every file in templates/ rendered with the server's Go-template engine
// (server/src/expr/template.ts) after the chart's _helpers.tpl, so define/template work across files.
// The chart keeps to what that engine supports (see deploy/helm/opsdeck/README.md).
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { renderTemplate } from '../../src/expr/template.js';

export type Values = Record<string, unknown>;

const isMap = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Helm's coalescing of user values over the chart's. */
export function mergeValues(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete out[k];
    else if (isMap(v) && isMap(out[k])) out[k] = mergeValues(out[k], v);
    else out[k] = v;
  }
  return out;
}

export interface Chart {
  dir: string;
  meta: { name: string; version: string; appVersion: string };
  values: Values;
}

export function loadChart(dir: string): Chart {
  const meta = parse(fs.readFileSync(path.join(dir, 'Chart.yaml'), 'utf8')) as Chart['meta'];
  const values = parse(fs.readFileSync(path.join(dir, 'values.yaml'), 'utf8')) as Values;
  return { dir, meta, values };
}

/** Renders every template (file name → text); files starting with `_` only define helpers. */
export function renderChart(
  chart: Chart,
  overrides: Values = {},
  release: { name?: string; namespace?: string } = {},
): Record<string, string> {
  const templatesDir = path.join(chart.dir, 'templates');
  const files = fs.readdirSync(templatesDir).sort();
  const helpers = files
    .filter((f) => f.startsWith('_'))
    .map((f) => fs.readFileSync(path.join(templatesDir, f), 'utf8'))
    .join('\n');
  const data = {
    Values: mergeValues(chart.values, overrides),
    Release: { Name: release.name ?? 'opsdeck', Namespace: release.namespace ?? 'default', Service: 'Helm' },
    Chart: { Name: chart.meta.name, Version: chart.meta.version, AppVersion: chart.meta.appVersion },
  };
  const out: Record<string, string> = {};
  for (const f of files.filter((x) => !x.startsWith('_'))) {
    const text = fs.readFileSync(path.join(templatesDir, f), 'utf8');
    // The helpers' own text (comments, blank lines) prints nothing; strip what is left of it.
    const rendered = renderTemplate(`${helpers}\n${text}`, data).replace(/^\s+/, '');
    if (rendered.includes('<no value>')) throw new Error(`${f}: a value is missing:\n${rendered}`);
    out[f] = rendered;
  }
  return out;
}
