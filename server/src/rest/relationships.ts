// Finds the relationship an embed names (select=team:team_id(...), people!inner(...)), as PostgREST does:
// many-to-one, one-to-many, one-to-one through a foreign key, and many-to-many through a junction table.
import type { ForeignKey, SchemaCache } from '../db/introspect.js';
import { ApiError } from './errors.js';
import { fuzzyMatches } from './fuzzy.js';

export type Relationship =
  | {
      cardinality: 'many-to-one' | 'one-to-many' | 'one-to-one';
      fk: ForeignKey;
      source: string;
      target: string;
      /** true when source holds the FK columns */ sourceReferences: boolean;
    }
  | {
      cardinality: 'many-to-many';
      source: string;
      target: string;
      junction: string;
      sourceFk: ForeignKey;
      targetFk: ForeignKey;
    };

export type ForeignKeyRelationship = Exclude<Relationship, { cardinality: 'many-to-many' }>;

export function isToOne(rel: Relationship): boolean {
  return rel.cardinality === 'many-to-one' || rel.cardinality === 'one-to-one';
}

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c));

/** Every relationship from `source` to any exposed relation. */
export function relationshipsFrom(
  schema: SchemaCache,
  source: string,
  exposed: (name: string) => boolean,
): Relationship[] {
  const out: Relationship[] = [];
  const isUnique = (table: string, cols: string[]) =>
    (schema.relations.get(table)?.uniqueKeys ?? []).some((k) => sameColumns(k, cols));
  for (const fk of schema.foreignKeys) {
    if (fk.table === source && exposed(fk.refTable)) {
      const card = isUnique(fk.table, fk.columns) ? 'one-to-one' : 'many-to-one';
      out.push({ cardinality: card, fk, source, target: fk.refTable, sourceReferences: true });
    }
    if (fk.refTable === source && exposed(fk.table)) {
      const card = isUnique(fk.table, fk.columns) ? 'one-to-one' : 'one-to-many';
      out.push({ cardinality: card, fk, source, target: fk.table, sourceReferences: false });
    }
  }
  // Junctions: a relation with FKs to the source and to a target whose FK columns are all in its primary key.
  for (const toSource of schema.foreignKeys) {
    if (toSource.refTable !== source || !exposed(toSource.table)) continue;
    const junction = schema.relations.get(toSource.table);
    if (!junction || junction.kind !== 'table') continue;
    const pk = junction.primaryKey;
    if (!toSource.columns.every((c) => pk.includes(c))) continue;
    for (const toTarget of schema.foreignKeys) {
      if (toTarget.table !== junction.name || toTarget === toSource || !exposed(toTarget.refTable)) continue;
      if (!toTarget.columns.every((c) => pk.includes(c))) continue;
      if (toTarget.columns.some((c) => toSource.columns.includes(c))) continue;
      out.push({
        cardinality: 'many-to-many',
        source,
        target: toTarget.refTable,
        junction: junction.name,
        sourceFk: toSource,
        targetFk: toTarget,
      });
    }
  }
  return out;
}

/** The columns on each side of a relationship's FK, from the point of view of `rel.source`. */
function fkColumns(rel: ForeignKeyRelationship): { sourceCols: string[]; targetCols: string[] } {
  return rel.sourceReferences
    ? { sourceCols: rel.fk.columns, targetCols: rel.fk.refColumns }
    : { sourceCols: rel.fk.refColumns, targetCols: rel.fk.columns };
}

export const joinColumns = fkColumns;

function matches(rel: Relationship, target: string, hint: string | undefined): boolean {
  const single = (cols: string[], name: string | undefined) => cols.length === 1 && cols[0] === name;
  if (rel.cardinality === 'many-to-many') {
    const byName = rel.target === target;
    if (!byName) return false;
    return (
      hint === undefined ||
      hint === rel.junction ||
      hint === rel.sourceFk.constraint ||
      hint === rel.targetFk.constraint
    );
  }
  // The FK's own column (on the referencing side) and the referenced column.
  const fkCols = rel.fk.columns;
  const refCols = rel.fk.refColumns;
  const byName = rel.target === target;
  // select=team_id(*) or select=fk_name(*): embedding by the FK column or constraint name (to-one side).
  const byColumn = rel.sourceReferences && single(fkCols, target);
  const byConstraint = rel.fk.constraint === target;
  if (!byName && !byColumn && !byConstraint) return false;
  if (hint === undefined) return true;
  return hint === rel.fk.constraint || single(fkCols, hint) || single(refCols, hint);
}

function describe(rel: Relationship): { cardinality: string; embedding: string; relationship: string } {
  if (rel.cardinality === 'many-to-many') {
    return {
      cardinality: rel.cardinality,
      embedding: `${rel.source} with ${rel.target}`,
      relationship: `${rel.junction} using ${rel.sourceFk.constraint}(${rel.sourceFk.columns.join(', ')}) and ${rel.targetFk.constraint}(${rel.targetFk.columns.join(', ')})`,
    };
  }
  const { sourceCols, targetCols } = fkColumns(rel);
  return {
    cardinality: rel.cardinality,
    embedding: `${rel.source} with ${rel.target}`,
    relationship: `${rel.fk.constraint} using ${rel.source}(${sourceCols.join(', ')}) and ${rel.target}(${targetCols.join(', ')})`,
  };
}

function hintName(rel: Relationship): string {
  return rel.cardinality === 'many-to-many' ? rel.junction : rel.fk.constraint;
}

/** PostgREST's suggestion: a related table whose name is close to the one asked for. */
function noRelationshipHint(
  schema: SchemaCache,
  source: string,
  target: string,
  exposed: (name: string) => boolean,
): string | null {
  const related = relationshipsFrom(schema, source, exposed).map((r) => r.target);
  const close = fuzzyMatches(related, target).find(([score]) => score < 1);
  return close ? `Perhaps you meant '${close[1]}' instead of '${target}'.` : null;
}

export function findRelationship(
  schema: SchemaCache,
  source: string,
  target: string,
  hint: string | undefined,
  exposed: (name: string) => boolean,
): Relationship {
  const candidates = relationshipsFrom(schema, source, exposed).filter((r) => matches(r, target, hint));
  if (candidates.length === 1) return candidates[0]!;
  // A view that repeats a table's keys does not make an embed ambiguous: the table wins, as in PostgREST.
  const toTables = candidates.filter((r) => schema.relations.get(r.target)?.kind !== 'view');
  if (candidates.length > 1 && toTables.length === 1) return toTables[0]!;
  if (candidates.length === 0) {
    const details = hint
      ? `Searched for a foreign key relationship between '${source}' and '${target}' using the hint '${hint}' in the schema '${schema.schema}', but no matches were found.`
      : `Searched for a foreign key relationship between '${source}' and '${target}' in the schema '${schema.schema}', but no matches were found.`;
    throw new ApiError(
      400,
      'PGRST200',
      `Could not find a relationship between '${source}' and '${target}' in the schema cache`,
      details,
      noRelationshipHint(schema, source, target, exposed),
    );
  }
  throw new ApiError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${source}' and '${target}'`,
    candidates.map(describe),
    `Try changing '${target}' to one of the following: ${candidates.map((r) => `'${target}!${hintName(r)}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
  );
}
