// Stage 2 of /api/db: one planning pass's state and checks: relations, columns, access and filters.
import type { Relation } from '../db/introspect.js';
import { ApiError } from './errors.js';
import { levenshtein } from './fuzzy.js';
import type { ApiRequest, Condition, Field } from './parse.js';
import type { Access, ColumnRef, PlanContext, PlannedCondition, ReadNode } from './plan.js';

/** What one plan() call shares: the request and context, the access it needs, the aliases handed out. */
export class PlanScope {
  private aliasCount = 0;
  readonly access: Access[] = [];
  /** Request nodes ('' and embed paths) the select reached; options on any other node are refused. */
  readonly usedNodes = new Set<string>(['']);

  constructor(
    readonly req: ApiRequest,
    readonly ctx: PlanContext,
  ) {}

  // -- relations, columns and access ------------------------------------------------------------

  readonly exposed = (name: string) => this.ctx.registry.relations.has(name) && this.ctx.schema.relations.has(name);

  relation(name: string): Relation {
    const rel = this.ctx.schema.relations.get(name);
    if (!rel || !this.ctx.registry.relations.has(name)) {
      throw new ApiError(404, '42P01', `relation "${this.ctx.schema.schema}.${name}" does not exist`);
    }
    return rel;
  }

  grant(relation: string, action: 'read' | 'write') {
    const entry = this.ctx.registry.relations.get(relation);
    const resource = action === 'write' ? (entry?.writeResource ?? entry?.resource) : entry?.resource;
    if (resource && !this.access.some((a) => a.resource === resource && a.action === action))
      this.access.push({ resource, action });
  }

  private secret(relation: string, column: string): boolean {
    return this.ctx.registry.relations.get(relation)?.secretColumns?.includes(column) ?? false;
  }

  visibleColumns(relation: Relation): string[] {
    return relation.columns.map((c) => c.name).filter((c) => !this.secret(relation.name, c));
  }

  /** `depth` names the relation in errors as PostgREST's SQL does: `people`, then `people_1` in an embed. */
  column(relation: Relation, alias: string, field: Field, depth = 0): ColumnRef {
    const column = relation.columnsByName.get(field.name);
    if (!column || this.secret(relation.name, field.name)) {
      throw missingColumn(
        depth ? `${relation.name}_${depth}` : relation.name,
        field.name,
        this.visibleColumns(relation),
      );
    }
    return {
      alias,
      column: field.name,
      json: field.json,
      notJson: !/^jsonb?$/.test(column.type) && column.type !== 'unknown',
    };
  }

  nextAlias(name: string): string {
    return `${name.slice(0, 40)}_${++this.aliasCount}`;
  }

  // -- filters --------------------------------------------------------------------------------------

  conditions(
    conds: Condition[],
    relation: Relation,
    alias: string,
    path: string[],
    node?: ReadNode,
  ): PlannedCondition[] {
    return conds.map((c) => this.condition(c, relation, alias, path, node));
  }

  private condition(
    c: Condition,
    relation: Relation,
    alias: string,
    path: string[],
    node?: ReadNode,
  ): PlannedCondition {
    if (c.kind === 'logic') {
      return {
        kind: 'logic',
        op: c.op,
        negated: c.negated,
        children: this.conditions(c.children, relation, alias, path, node),
      };
    }
    // select=*,teams(*)&teams=not.is.null: a condition on the embed itself.
    const embed = node?.projection.find(
      (p) => p.kind === 'embed' && p.key === c.field.name && c.field.json.length === 0,
    );
    if (embed && embed.kind === 'embed' && c.op === 'is' && c.value === 'null') {
      return { kind: 'embedNull', embedAlias: embed.node.alias, toOne: embed.node.join!.toOne, negated: c.negated };
    }
    return {
      kind: 'filter',
      ref: this.column(relation, alias, c.field, path.length),
      negated: c.negated,
      op: c.op,
      quantifier: c.quantifier,
      value: c.value,
      ftsConfig: c.ftsConfig,
    };
  }
}

/** PostgreSQL's "column does not exist" error, with its "Perhaps you meant" hint for near misses. */
function missingColumn(relationAlias: string, name: string, candidates: string[]): ApiError {
  const suggestion = closestColumn(name, candidates);
  return new ApiError(
    400,
    '42703',
    `column ${relationAlias}.${name} does not exist`,
    null,
    suggestion ? `Perhaps you meant to reference the column "${relationAlias}.${suggestion}".` : null,
  );
}

/** PostgreSQL's fuzzy column match: Levenshtein distance ≤ 3 and at most half the name's length. */
export function closestColumn(name: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 4;
  for (const c of candidates) {
    const d = levenshtein(name, c);
    if (d > Math.floor(name.length / 2)) continue;
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
