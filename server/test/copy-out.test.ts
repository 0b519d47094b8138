// Binary COPY to the server (db/copyOut.ts on PostgreSQL, COPY … TO '/dev/blob' on PGlite): every
// row arrives whole and in order, whatever size the caller guessed for the buffer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CopyReader } from '../src/db/copyOut.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

/** 3,000 rows of an int4 and a bytea of 0–1,398 bytes (about 2 MB): many messages, a buffer grown several times. */
const SQL = `COPY (SELECT g, decode(repeat(lpad(to_hex(g % 256), 2, '0'), g % 700 * 2), 'hex')
  FROM generate_series(1, 3000) g ORDER BY g) TO STDOUT (FORMAT binary)`;

describe.each(databaseKinds())('binary COPY out on %s', (kind) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase(kind);
  });
  afterAll(() => test?.close());

  const read = (expectBytes?: number) =>
    test.db.copyOut ? test.db.copyOut(SQL, expectBytes) : test.db.copyOutBlob!(SQL);

  it('gives every row whole and in order, from a buffer sized too small, not at all, or right', async () => {
    const sizes: number[] = [];
    for (const guess of [undefined, 100, 0]) {
      const data = await read(guess ?? sizes[0]);
      sizes.push(data.length);
      const r = new CopyReader(data);
      let g = 0;
      while (r.tuple() === 2) {
        g++;
        expect(r.int4(r.field())).toBe(g);
        const len = r.field();
        expect(len).toBe((g % 700) * 2);
        const bytes = r.b.subarray(r.p, r.p + len);
        expect(bytes.every((x) => x === g % 256)).toBe(true);
      }
      expect(g).toBe(3000);
    }
    expect(sizes[0]).toBeGreaterThan(2_000_000);
    expect(new Set(sizes).size).toBe(1);
  });
});
