// Vite plugin: after a production build, prints every JavaScript chunk with its gzipped size,
// sums the initial JavaScript (entry chunks and what they import statically) and fails the
// build when that sum is over the budget. Lazily loaded pages don't count towards it. `keepOut` names
// chunks (by their module's name, e.g. the /health page's) whose static imports must not bring in
// some modules (a large library only another tab uses): the build fails, naming the chunk that does.
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

interface ChunkInfo {
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  name: string;
  moduleIds: string[];
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export function bundleBudget(options: { initialGzipKb: number; keepOut?: Record<string, RegExp> }): Plugin {
  return {
    name: 'opsdeck-bundle-budget',
    apply: 'build',
    writeBundle(_output, bundle) {
      const chunks = new Map<string, ChunkInfo>();
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk') chunks.set(item.fileName, item as unknown as ChunkInfo);
      }
      const gzip = new Map<string, number>();
      for (const c of chunks.values()) gzip.set(c.fileName, zlib.gzipSync(c.code, { level: 9 }).length);

      // The initial set: entries plus their static imports, transitively.
      const closure = (files: string[], into = new Set<string>()) => {
        const visit = (file: string) => {
          if (into.has(file)) return;
          into.add(file);
          for (const dep of chunks.get(file)?.imports ?? []) visit(dep);
        };
        files.forEach(visit);
        return into;
      };
      const initial = closure([...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName));

      for (const [name, pattern] of Object.entries(options.keepOut ?? {})) {
        const own = [...chunks.values()].filter((c) => c.name === name);
        if (own.length === 0) this.error(`bundle check: no chunk named ${name}`);
        for (const file of closure(own.map((c) => c.fileName))) {
          const bad = chunks.get(file)!.moduleIds.find((id) => pattern.test(id));
          if (bad) this.error(`${name} loads ${bad} (in ${file}) with its static imports; import it lazily`);
        }
      }

      const rows = [...chunks.values()].sort(
        (a, b) =>
          Number(initial.has(b.fileName)) - Number(initial.has(a.fileName)) ||
          gzip.get(b.fileName)! - gzip.get(a.fileName)!,
      );
      const width = Math.max(...rows.map((r) => r.fileName.length), 10);
      const lines = [
        '',
        'JavaScript bundle (gzipped):',
        `  ${'chunk'.padEnd(width)}  ${'raw'.padStart(10)}  ${'gzip'.padStart(10)}  load`,
        ...rows.map(
          (r) =>
            `  ${r.fileName.padEnd(width)}  ${kb(Buffer.byteLength(r.code)).padStart(10)}  ${kb(gzip.get(r.fileName)!).padStart(10)}  ${initial.has(r.fileName) ? 'initial' : 'lazy'}`,
        ),
      ];
      const initialBytes = [...initial].reduce((sum, f) => sum + gzip.get(f)!, 0);
      const lazyBytes = [...chunks.keys()].filter((f) => !initial.has(f)).reduce((sum, f) => sum + gzip.get(f)!, 0);
      lines.push(
        `  initial JavaScript: ${kb(initialBytes)} gzipped in ${initial.size} chunk(s) (budget ${options.initialGzipKb} kB)`,
        `  lazy JavaScript:    ${kb(lazyBytes)} gzipped in ${chunks.size - initial.size} chunk(s)`,
        '',
      );
      console.log(lines.join('\n'));
      if (initialBytes > options.initialGzipKb * 1000) {
        this.error(`initial JavaScript is ${kb(initialBytes)} gzipped, over the ${options.initialGzipKb} kB budget`);
      }
    },
  };
}
