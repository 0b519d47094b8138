import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, requestIdFrom, withRequestId } from './log.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { lines, raw, stream };
}

describe('log', () => {
  it('writes JSON lines with level names, and the request id inside withRequestId only', async () => {
    const { lines, stream } = capture();
    const log = createLogger('info', stream);
    log.debug('hidden');
    log.info('outside');
    await withRequestId('req-1', async () => {
      await new Promise((r) => setTimeout(r, 1));
      log.child({ component: 'http' }).warn({ route: '/x' }, 'inside');
    });
    expect(lines.map((l) => [l.level, l.msg, l.request_id])).toEqual([
      ['info', 'outside', undefined],
      ['warn', 'inside', 'req-1'],
    ]);
    expect(lines[1]).toMatchObject({ component: 'http', route: '/x' });
    expect(typeof lines[0]!.time).toBe('string');
  });

  it('never writes credentials', () => {
    const { raw, stream } = capture();
    const log = createLogger('debug', stream);
    log.info(
      {
        headers: {
          authorization: 'Bearer tok-1',
          cookie: 'sid=cookie-2',
          'set-cookie': 'sid=cookie-3',
          accept: 'json',
        },
        password: 'pw-4',
        user: { password: 'pw-5', token: 'tok-6', name: 'Ann' },
        oidc: { clientSecret: 'cs-7' },
        connection: { secret: 'sec-8' },
        authorization: 'Basic b-9',
      },
      'a request',
    );
    const text = raw.join('\n');
    for (const secret of ['tok-1', 'cookie-2', 'cookie-3', 'pw-4', 'pw-5', 'tok-6', 'cs-7', 'sec-8', 'b-9'])
      expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
    expect(text).toContain('Ann');
    expect(text).toContain('json');
  });

  it('keeps a sane X-Request-Id and replaces anything else', () => {
    expect(requestIdFrom('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    for (const bad of [undefined, null, '', 'a b', 'x'.repeat(129), 'line\nbreak', '"quoted"'])
      expect(requestIdFrom(bad)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
