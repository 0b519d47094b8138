// Summarises a V8 .cpuprofile (node --cpu-prof) of the Opsdeck server: where the busy time goes,
// by package / source file, by function (self time), and inclusive time of Opsdeck's own functions.
// Frames in server/dist/main.js are mapped back to server/src through the bundle's source map.
// Usable on its own: npx tsx bench/profile.ts <file.cpuprofile>
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable, repoRoot } from './lib.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface Frame {
  /** function (file:line) */
  label: string;
  /** package, Node internals, Opsdeck source file, or a V8 pseudo-frame */
  category: string;
  opsdeck: boolean;
}

const maps = new Map<string, SourceMap | null>();

function sourceMapFor(file: string): SourceMap | null {
  if (!maps.has(file)) {
    let map: SourceMap | null = null;
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return maps.get(file)!;
}

function describe(cf: CallFrame): Frame {
  const name = cf.functionName || '(anonymous)';
  if (!cf.url) {
    const pseudo = /^\((garbage collector|program|idle|root)\)$/.test(name);
    return { label: name, category: pseudo ? name : 'V8 builtins / native', opsdeck: false };
  }
  if (cf.url.startsWith('wasm:')) {
    return { label: `${name} (${cf.url})`, category: 'WebAssembly (PGlite)', opsdeck: false };
  }
  if (cf.url.startsWith('node:')) {
    const mod = cf.url.slice(5).replace(/^internal\//, '');
    return { label: `${name} (${cf.url}:${cf.lineNumber + 1})`, category: `node:${mod.split('/')[0]}`, opsdeck: false };
  }
  const file = cf.url.startsWith('file:') ? fileURLToPath(cf.url) : cf.url;
  const nm = file.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const parts = file.slice(nm + 'node_modules/'.length).split('/');
    const pkg = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    const rest = parts.slice(pkg.split('/').length).join('/');
    return { label: `${name} (${pkg}/${rest}:${cf.lineNumber + 1})`, category: pkg, opsdeck: false };
  }
  const map = sourceMapFor(file);
  const entry = map?.findEntry(cf.lineNumber, cf.columnNumber) as
    { originalSource?: string; originalLine?: number } | undefined;
  if (entry?.originalSource) {
    const src = path.relative(
      repoRoot,
      entry.originalSource.startsWith('file:')
        ? fileURLToPath(entry.originalSource)
        : path.resolve(path.dirname(file), entry.originalSource),
    );
    return { label: `${name} (${src}:${(entry.originalLine ?? 0) + 1})`, category: `opsdeck ${src}`, opsdeck: true };
  }
  const rel = path.relative(repoRoot, file);
  return { label: `${name} (${rel}:${cf.lineNumber + 1})`, category: rel, opsdeck: rel.startsWith('server/') };
}

export function summarizeProfile(file: string, log: (s: string) => void, top = 25): void {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const frames = new Map<number, Frame>(profile.nodes.map((n) => [n.id, describe(n.callFrame)]));
  const totalUs = [...self.values()].reduce((a, b) => a + b, 0);
  const idleUs = profile.nodes
    .filter((n) => n.callFrame.functionName === '(idle)')
    .reduce((a, n) => a + (self.get(n.id) ?? 0), 0);
  const busyUs = totalUs - idleUs;
  const pct = (us: number) => `${((100 * us) / busyUs).toFixed(1)}%`;
  const msOf = (us: number) => (us / 1000).toFixed(0);

  log(`\nCPU profile ${file}`);
  log(
    `  ${(totalUs / 1e6).toFixed(1)} s sampled, ${(idleUs / 1e6).toFixed(1)} s idle (waiting for I/O), ${(busyUs / 1e6).toFixed(1)} s busy; percentages are of busy time.`,
  );

  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const byCategory = new Map<string, number>();
  const byLabel = new Map<string, number>();
  for (const [id, us] of self) {
    const f = frames.get(id)!;
    if (f.category === '(idle)') continue;
    add(byCategory, f.category, us);
    add(byLabel, f.label, us);
  }
  const sorted = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);

  log('\nSelf time by package / source file:');
  printTable(
    ['where', 'self ms', 'share'],
    sorted(byCategory, 20).map(([k, us]) => [k, msOf(us), pct(us)]),
  );

  log(`\nTop ${top} functions by self time:`);
  printTable(
    ['function (location)', 'self ms', 'share'],
    sorted(byLabel, top).map(([k, us]) => [k, msOf(us), pct(us)]),
  );

  // Inclusive time: a frame's subtree, counted once per sample even when the frame recurses.
  const inclusive = new Map<string, number>();
  const categoryInclusive = new Map<string, number>();
  const walk = (id: number, onPath: Set<string>, categoriesOnPath: Set<string>): number => {
    const node = byId.get(id)!;
    const f = frames.get(id)!;
    let sum = self.get(id) ?? 0;
    const fresh = !onPath.has(f.label);
    const freshCat = !categoriesOnPath.has(f.category);
    if (fresh) onPath.add(f.label);
    if (freshCat) categoriesOnPath.add(f.category);
    for (const c of node.children ?? []) sum += walk(c, onPath, categoriesOnPath);
    if (fresh) {
      onPath.delete(f.label);
      if (f.opsdeck) add(inclusive, f.label, sum);
    }
    if (freshCat) {
      categoriesOnPath.delete(f.category);
      add(categoryInclusive, f.category, sum);
    }
    return sum;
  };
  const root = profile.nodes.find((n) => n.callFrame.functionName === '(root)') ?? profile.nodes[0]!;
  walk(root.id, new Set(), new Set());

  log('\nInclusive time of Opsdeck functions (self + callees):');
  printTable(
    ['function (location)', 'total ms', 'share'],
    sorted(inclusive, 20).map(([k, us]) => [k, msOf(us), pct(us)]),
  );

  log('\nInclusive time by package (time with a frame of it on the stack):');
  printTable(
    ['package', 'total ms', 'share'],
    sorted(categoryInclusive, 40)
      .filter(([k]) => !k.startsWith('(') && !k.startsWith('opsdeck ') && k !== 'V8 builtins / native')
      .slice(0, 15)
      .map(([k, us]) => [k, msOf(us), pct(us)]),
  );
}

/**
 * The longest stretches the thread was busy without a break (no idle sample between): what kept the
 * event loop from everything else (timers, sockets) and for how long. Wall time, so a stretch of a
 * process under a CPU quota includes the time it was throttled. For each: when it started (seconds
 * into the profile, or the clock time when `endedAt`, the epoch ms the process exited at, is
 * given), how long it lasted, and the Opsdeck functions most often on its stack.
 */
export function longestStretches(
  file: string,
  log: (s: string) => void,
  opts: { top?: number; minMs?: number; endedAt?: number } = {},
): void {
  const { top = 10, minMs = 50, endedAt } = opts;
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const frames = new Map<number, Frame>(profile.nodes.map((n) => [n.id, describe(n.callFrame)]));
  const opsdeckOnStack = new Map<number, string[]>();
  const stackOf = (id: number): string[] => {
    let labels = opsdeckOnStack.get(id);
    if (!labels) {
      const set = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const f = frames.get(at)!;
        if (f.opsdeck) set.add(f.label);
      }
      labels = [...set];
      opsdeckOnStack.set(id, labels);
    }
    return labels;
  };
  interface Stretch {
    startUs: number;
    us: number;
    samples: number[];
  }
  const stretches: Stretch[] = [];
  let current: Stretch | undefined;
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    const idle = byId.get(id)!.callFrame.functionName === '(idle)';
    if (idle) {
      if (current) stretches.push(current);
      current = undefined;
      continue;
    }
    if (!current) current = { startUs: t, us: 0, samples: [] };
    else current.us += delta;
    current.samples.push(id);
  }
  if (current) stretches.push(current);
  const long = stretches.filter((s) => s.us >= minMs * 1000).sort((a, b) => b.us - a.us);
  const busyMs = long.reduce((a, s) => a + s.us, 0) / 1000;
  log(
    `\nBusy stretches of ${minMs} ms or more (no idle sample between): ${long.length}, ${busyMs.toFixed(0)} ms in all; the ${Math.min(top, long.length)} longest:`,
  );
  printTable(
    [endedAt ? 'at' : 'at (s)', 'ms', 'Opsdeck functions most on the stack (share of the stretch)'],
    long.slice(0, top).map((s) => {
      const count = new Map<string, number>();
      for (const id of s.samples) for (const l of stackOf(id)) count.set(l, (count.get(l) ?? 0) + 1);
      const most = [...count.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([l, n]) => `${l} ${Math.round((100 * n) / s.samples.length)}%`)
        .join('; ');
      const at = endedAt
        ? new Date(endedAt - (t - s.startUs) / 1000).toISOString().slice(11, 22)
        : (s.startUs / 1e6).toFixed(1);
      return [at, (s.us / 1000).toFixed(0), most || '(none: Node, V8, GC)'];
    }),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: npx tsx bench/profile.ts <file.cpuprofile>');
    process.exit(2);
  }
  summarizeProfile(file, console.log);
  longestStretches(file, console.log);
}
