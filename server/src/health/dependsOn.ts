// `dependsOn` as canary-checker implements it: a check names other checks of the same canary; in a
// run of the canary they run first, and the dependent's test/display/transform/metrics see their
// results as `outputs.<name>` (outputs.ts reads them from the database). A name that is not a
// check of the canary, or a cycle, is refused at apply (canary-checker refuses the run instead).
import { formatPath, ResourceError, type ResourceDocument } from '../resources/yaml.js';

type Path = (string | number)[];

/** The names a check's spec lists under dependsOn (blank entries ignored). */
export function dependsOnOf(spec: Record<string, unknown>): string[] {
  const list = spec.dependsOn;
  if (!Array.isArray(list)) return [];
  return list.filter((n): n is string => typeof n === 'string' && n !== '');
}

/** One check of a canary being applied, with where it is in the document. */
export interface LocatedCheck {
  type: string;
  name: string;
  spec: Record<string, unknown>;
  /** e.g. ['spec', 'http', 0] */
  path: Path;
}

/**
 * What is wrong with the canary's dependsOn lists, at their place in the document: a name that no
 * check has, a name two checks of different types share, a check depending on itself, a cycle.
 */
export function dependencyErrors(checks: LocatedCheck[], locate: ResourceDocument['locate']): ResourceError[] {
  const errors: ResourceError[] = [];
  const byName = new Map<string, LocatedCheck[]>();
  for (const c of checks) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  const error = (path: Path, message: string) =>
    errors.push(new ResourceError(`${formatPath(path)}: ${message}`, locate(path), formatPath(path)));
  const edges = new Map<LocatedCheck, LocatedCheck[]>();
  for (const c of checks) {
    const deps: LocatedCheck[] = [];
    dependsOnOf(c.spec).forEach((name, j) => {
      const at = [...c.path, 'dependsOn', j];
      const found = byName.get(name) ?? [];
      if (found.length === 0) {
        const names = [...byName.keys()].filter((n) => n !== c.name).sort();
        error(
          at,
          `no check of this canary is named "${name}"${names.length ? ` (its checks: ${names.join(', ')})` : ''}`,
        );
      } else if (found.length > 1) {
        error(at, `"${name}" names ${found.length} checks (${found.map((f) => f.type).join(', ')}): rename one`);
      } else if (found[0] === c) {
        error(at, `a check cannot depend on itself`);
      } else deps.push(found[0]!);
    });
    edges.set(c, deps);
  }
  // Cycles: depth-first search, reporting each cycle once at the check where it closes.
  const state = new Map<LocatedCheck, 'visiting' | 'done'>();
  const stack: LocatedCheck[] = [];
  const visit = (c: LocatedCheck) => {
    state.set(c, 'visiting');
    stack.push(c);
    for (const d of edges.get(c) ?? []) {
      if (state.get(d) === 'visiting') {
        const cycle = [...stack.slice(stack.indexOf(d)), d].map((x) => x.name).join(' → ');
        const j = dependsOnOf(c.spec).indexOf(d.name);
        error([...c.path, 'dependsOn', j], `dependsOn makes a cycle: ${cycle}`);
      } else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(c, 'done');
  };
  for (const c of checks) if (!state.has(c)) visit(c);
  return errors;
}

/**
 * Runs the checks of one canary run in dependency order: `ordered` lists every check after the
 * checks it depends on, and `run` waits for those to finish (pass or fail) before starting it. Run
 * `ordered` front to back with any concurrency: a check only waits for checks taken before it, so
 * no worker waits on a check no one has started. A dependency that is not among the checks (or a
 * cycle stored before validation existed) is not waited for.
 */
export class DependencyGate<C extends { name: string; spec: Record<string, unknown> }> {
  readonly ordered: C[];
  /** Per check: the checks placed before it that it depends on. */
  private readonly waitsFor = new Map<C, C[]>();
  private readonly finished = new Map<C, { done: Promise<void>; resolve: () => void }>();

  constructor(checks: C[]) {
    const byName = new Map(checks.map((c) => [c.name, c]));
    const placed = new Set<C>();
    const onPath = new Set<C>();
    const ordered: C[] = [];
    const place = (c: C) => {
      if (placed.has(c) || onPath.has(c)) return;
      onPath.add(c);
      const deps: C[] = [];
      for (const name of dependsOnOf(c.spec)) {
        const d = byName.get(name);
        if (!d || d === c) continue;
        place(d);
        // A stored cycle leaves d unplaced here: not waited for, so nothing deadlocks.
        if (placed.has(d)) deps.push(d);
      }
      onPath.delete(c);
      placed.add(c);
      ordered.push(c);
      this.waitsFor.set(c, deps);
    };
    for (const c of checks) place(c);
    this.ordered = ordered;
    for (const c of ordered) {
      let resolve!: () => void;
      const done = new Promise<void>((r) => (resolve = r));
      this.finished.set(c, { done, resolve });
    }
  }

  async run<T>(check: C, fn: () => Promise<T>): Promise<T> {
    try {
      await Promise.all((this.waitsFor.get(check) ?? []).map((d) => this.finished.get(d)!.done));
      return await fn();
    } finally {
      this.finished.get(check)?.resolve();
    }
  }
}
