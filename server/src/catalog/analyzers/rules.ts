// The rule analyzer: a ScrapeConfig's `spec.analysis.rules` evaluated on every scraped item. A rule
// is {name, type?, expr, severity?, analysis_type?, message?}: `type` limits it to items of that
// type (glob `*` allowed), `expr` is CEL over `config` (the item's config, its fields also at the
// top level) and `item` ({id, name, type, class, labels, tags, health, status}); true means the
// insight applies. `message` is a Go template over the same variables. The analyzer name stored in
// config_analysis is the rule's name.
import { evaluateCel, renderTemplate } from '../../expr/index.js';
import type { AnalysisRule } from '../scrapeConfig.js';

export interface AnalyzedItem {
  id: string;
  name: string;
  type: string;
  configClass: string;
  labels: Record<string, string>;
  tags: Record<string, string>;
  health: string | null;
  status: string | null;
  config: unknown;
}

export interface Finding {
  configId: string;
  analyzer: string;
  analysisType: string;
  severity: string;
  message: string;
  summary: string;
}

const typeMatches = (pattern: string | undefined, type: string) =>
  !pattern || new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(type);

/** Every rule on every item: the findings, and the rule errors (one per rule, not per item). */
export function analyze(items: AnalyzedItem[], rules: AnalysisRule[]): { findings: Finding[]; errors: string[] } {
  const findings: Finding[] = [];
  const errors: string[] = [];
  for (const rule of rules) {
    let failed = false;
    for (const it of items) {
      if (!typeMatches(rule.type, it.type)) continue;
      const item = {
        id: it.id,
        name: it.name,
        type: it.type,
        class: it.configClass,
        labels: it.labels,
        tags: it.tags,
        health: it.health,
        status: it.status,
      };
      const vars = {
        ...(it.config && typeof it.config === 'object' && !Array.isArray(it.config) ? it.config : {}),
        config: it.config,
        item,
      };
      try {
        if (evaluateCel(rule.expr, vars) !== true) continue;
        const message = rule.message ? renderTemplate(rule.message, vars) : rule.name;
        findings.push({
          configId: it.id,
          analyzer: rule.name,
          analysisType: rule.analysis_type ?? 'other',
          severity: rule.severity ?? 'medium',
          message,
          summary: message.split('\n')[0]!.slice(0, 200),
        });
      } catch (e) {
        if (!failed) errors.push(`analysis rule ${rule.name}: ${it.type} ${it.name}: ${(e as Error).message}`);
        failed = true;
      }
    }
  }
  return { findings, errors };
}
