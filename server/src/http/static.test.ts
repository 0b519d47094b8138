import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWeb } from './static.js';

function appFor(webDir: string): Hono {
  const app = new Hono();
  app.get('/api/about', (c) => c.json({ ok: true }));
  app.all('/api/*', (c) => c.json({ error: 'no endpoint' }, 404));
  serveWeb(app, webDir);
  return app;
}

const BIG = Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i};`).join('\n');

describe('serveWeb', () => {
  let root: string;
  let webDir: string;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-static-'));
    webDir = path.join(root, 'dist');
    fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Opsdeck</title>');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.css'), 'body{}');
    fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg/>');
    fs.writeFileSync(path.join(webDir, 'assets', 'big-abc123.js'), BIG);
    fs.writeFileSync(path.join(webDir, 'assets', 'logo-abc123.png'), Buffer.alloc(4096, 7));
    fs.writeFileSync(path.join(root, 'secret.txt'), 'outside the web root');
  });

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('serves hashed assets with their content type and an immutable cache policy', async () => {
    const res = await appFor(webDir).request('/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe('console.log(1)');

    const css = await appFor(webDir).request('/assets/index-abc123.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('serves other files and index.html with no-cache', async () => {
    const svg = await appFor(webDir).request('/favicon.svg');
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('cache-control')).toBe('no-cache');

    const index = await appFor(webDir).request('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toContain('<title>Opsdeck</title>');
  });

  it('falls back to index.html for client-side routes', async () => {
    const res = await appFor(webDir).request('/health/checks/123?tab=history');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>Opsdeck</title>');
  });

  it('answers 404 for a missing hashed asset instead of HTML', async () => {
    const res = await appFor(webDir).request('/assets/index-old999.js');
    expect(res.status).toBe(404);
  });

  it('leaves /api/* to the API routes', async () => {
    expect(await (await appFor(webDir).request('/api/about')).json()).toEqual({ ok: true });
    const res = await appFor(webDir).request('/api/unknown');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('never serves files outside the web root', async () => {
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const res = await appFor(webDir).request(`http://localhost${p}`);
      expect(await res.text(), p).not.toContain('outside the web root');
    }
    expect((await appFor(webDir).request('/%E0%A4%A')).status).toBe(400);
  });

  it('answers 304 when the ETag matches', async () => {
    const first = await appFor(webDir).request('/favicon.svg');
    const etag = first.headers.get('etag')!;
    const second = await appFor(webDir).request('/favicon.svg', { headers: { 'If-None-Match': etag } });
    expect(second.status).toBe(304);
  });

  it('sends text files gzipped to browsers that accept it, as a representation of their own', async () => {
    const gz = await appFor(webDir).request('/assets/big-abc123.js', { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(gz.status).toBe(200);
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toBe('Accept-Encoding');
    const bytes = Buffer.from(await gz.arrayBuffer());
    expect(bytes.length).toBeLessThan(BIG.length / 3);
    expect(Number(gz.headers.get('content-length'))).toBe(bytes.length);
    expect(zlib.gunzipSync(bytes).toString()).toBe(BIG);

    const plain = await appFor(webDir).request('/assets/big-abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(BIG);
    expect(plain.headers.get('etag')).not.toBe(gz.headers.get('etag'));
    const refused = await appFor(webDir).request('/assets/big-abc123.js', {
      headers: { 'Accept-Encoding': 'gzip;q=0' },
    });
    expect(refused.headers.get('content-encoding')).toBeNull();

    // Revalidating the gzip variant with its own ETag.
    const again = await appFor(webDir).request('/assets/big-abc123.js', {
      headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': gz.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    // Small files and images go as they are.
    const small = await appFor(webDir).request('/favicon.svg', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    const png = await appFor(webDir).request('/assets/logo-abc123.png', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(png.headers.get('content-encoding')).toBeNull();
    expect((await png.arrayBuffer()).byteLength).toBe(4096);
  });

  it('serves a file kept in memory anew once it changes on disk, and large files in full', async () => {
    const file = path.join(webDir, 'assets', 'chunk-abc123.js');
    fs.writeFileSync(file, 'export const a = 1;');
    fs.utimesSync(file, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    expect(await (await appFor(webDir).request('/assets/chunk-abc123.js')).text()).toBe('export const a = 1;');
    fs.writeFileSync(file, 'export const a = 22;');
    fs.utimesSync(file, new Date('2026-01-02T00:00:00Z'), new Date('2026-01-02T00:00:00Z'));
    const changed = await appFor(webDir).request('/assets/chunk-abc123.js');
    expect(await changed.text()).toBe('export const a = 22;');
    expect(changed.headers.get('content-length')).toBe('20');

    const large = Buffer.alloc(200 * 1024, 9); // above what is kept in memory: streamed from disk
    fs.writeFileSync(path.join(webDir, 'assets', 'large-abc123.png'), large);
    const png = await appFor(webDir).request('/assets/large-abc123.png');
    expect(Buffer.from(await png.arrayBuffer()).equals(large)).toBe(true);
  });

  it('explains how to build the console when index.html is missing', async () => {
    const res = await appFor(path.join(root, 'not-built')).request('/');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toContain('npm run build');
    expect((await appFor(path.join(root, 'not-built')).request('/api/about')).status).toBe(200);
  });
});
