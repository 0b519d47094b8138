// Bundles the server into dist/main.js (npm start) and dist/cli.js (the opsdeck command). npm dependencies stay external (resolved from
// node_modules at runtime); the workspace package @opsdeck/common is TypeScript source, so it is
// bundled in. At runtime migrations are read from src/db/migrations and the version from
// package.json (both located relative to dist/).
import { build } from 'esbuild';
import path from 'node:path';

const here = import.meta.dirname;
const commonSrc = path.join(here, '../common/src');
const started = Date.now();

/** Resolves @opsdeck/common[/x] to its .ts source before packages: 'external' would skip it. */
const bundleCommon = {
  name: 'bundle-opsdeck-common',
  setup(b) {
    b.onResolve({ filter: /^@opsdeck\/common(\/.*)?$/ }, (args) => {
      const sub = args.path.slice('@opsdeck/common'.length);
      return { path: sub ? path.join(commonSrc, `${sub.slice(1)}.ts`) : path.join(commonSrc, 'index.ts') };
    });
  },
};

try {
  const result = await build({
    absWorkingDir: here,
    entryPoints: [path.join(here, 'src/main.ts'), path.join(here, 'src/cli.ts')],
    outdir: path.join(here, 'dist'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [bundleCommon],
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    if (out.entryPoint) console.log(`server/${file}  ${(out.bytes / 1024).toFixed(1)} kB`);
  }
  console.log(`server built in ${Date.now() - started} ms`);
} catch {
  // esbuild has already printed the errors with their locations.
  process.exit(1);
}
