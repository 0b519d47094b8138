// Vite build of the web console into web/dist; in dev, /api goes to the server on :8080.
// The build prints the gzipped JavaScript sizes and fails when the initial JavaScript is over budget
// (350 kB gzipped; WEB_INITIAL_JS_BUDGET_KB overrides it, e.g. to see the check fail).
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { bundleBudget } from './build/bundleBudget.js';

const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'package.json'), 'utf8')) as { version: string };

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    bundleBudget({
      initialGzipKb: Number(process.env.WEB_INITIAL_JS_BUDGET_KB ?? 350),
      // The first page on-call people open, and its check drawer, load without the code editor, the
      // YAML library, zod or the generic data table: each was ~30–100 kB more to fetch and compile on
      // the way to the first row or the open drawer (docs/web-console.md).
      keepOut: {
        HealthPage: /[\\/]node_modules[\\/](@codemirror|yaml|zod|@tanstack[\\/]table-core)[\\/]/,
        CheckDrawer: /[\\/]node_modules[\\/](@codemirror|yaml|zod)[\\/]/,
      },
    }),
  ],
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The budget plugin reports sizes per chunk; Vite's own warning at 500 kB raw adds nothing.
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        // Icons in one chunk: split by the pages sharing them, a page waited for a dozen requests of
        // ~600 bytes each (/health: 9 of its 29 chunks), six at a time over HTTP/1.1.
        codeSplitting: { groups: [{ name: 'icons', test: /[\\/]lucide-react[\\/]/ }] },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: process.env.OPSDECK_API ?? 'http://localhost:8080', changeOrigin: false },
    },
  },
});
