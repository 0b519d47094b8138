// Vite build of the web console into web/dist; in dev, /api goes to the server on :8080.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      '/api': { target: process.env.OPSDECK_API ?? 'http://localhost:8080', changeOrigin: false },
    },
  },
});
