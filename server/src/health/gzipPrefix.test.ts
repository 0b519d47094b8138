import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflatePrefix, gzipWithPrefix } from './gzipPrefix.js';
import { ConsoleStream } from './summaryConsole.js';

const rowsOf = (n: number, salt = '') =>
  Array.from({ length: n }, (_, i) => JSON.stringify([`check-${i}${salt}`, 'healthy', i % 7, 100 - (i % 13), null]));

describe('gzip from a deflated constant part', () => {
  it('is one valid gzip member of the part and each tail, the part deflated once', async () => {
    const body = Buffer.from(`{"rows":[${rowsOf(5_000).join(',')}]`);
    const prefix = deflatePrefix(body);
    for (const tail of [',"duration":12}', ',"duration":3456}', '}']) {
      const zipped = await gzipWithPrefix(prefix, Buffer.from(tail));
      // gunzip checks the CRC-32 and the length of the whole.
      expect(zlib.gunzipSync(zipped).toString()).toBe(body.toString() + tail);
      expect(zipped.length).toBeLessThan(body.length / 4);
    }
  });

  it("keeps a console stream's full answer deflated for its version only", async () => {
    const stream = new ConsoleStream();
    const ids = rowsOf(300).map((_, i) => `id-${i}`);
    stream.feed({}, ids, rowsOf(300));
    const first = stream.answer(undefined);
    expect(first.full).toBe(true);
    const deflated = stream.deflatedFull(first.body);
    expect(stream.deflatedFull(stream.answer(undefined).body)).toBe(deflated);
    const tail = Buffer.from(',"duration":1}');
    expect(zlib.gunzipSync(await gzipWithPrefix(deflated, tail)).toString()).toBe(
      first.body.toString() + tail.toString(),
    );

    // A new version: its full answer is deflated anew, and an older body is not mistaken for it.
    stream.feed({}, ids, rowsOf(300, '-changed'));
    const second = stream.answer(undefined);
    expect(second.body.equals(first.body)).toBe(false);
    const again = stream.deflatedFull(second.body);
    expect(again).not.toBe(deflated);
    expect(zlib.gunzipSync(await gzipWithPrefix(again, tail)).toString()).toBe(
      second.body.toString() + tail.toString(),
    );
    expect(zlib.gunzipSync(await gzipWithPrefix(stream.deflatedFull(first.body), tail)).toString()).toBe(
      first.body.toString() + tail.toString(),
    );
  });
});
