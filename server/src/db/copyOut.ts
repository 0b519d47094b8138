// `COPY (SELECT …) TO STDOUT (FORMAT binary)` over a node-postgres client: the rows arrive in
// PostgreSQL's binary forms (int8 as 8 bytes, bytea as its bytes), with no text to parse and no
// base64 to encode on the server and decode here. node-postgres hands a query the COPY data only
// through a Query's handleCopyData hook (what pg-copy-streams builds on), so this is a Query that
// gathers it into one buffer. A statement that fails rejects as any query does.
import type { PoolClient } from 'pg';

interface CopyData {
  chunk: Buffer;
}

/**
 * The binary COPY data of `sql` (a COPY … TO STDOUT statement), as one buffer, first sized
 * `expectBytes` (the caller's last size: one allocation instead of a doubling series, as the
 * buffers are garbage V8 frees only at its next collection).
 */
export async function copyOutBinary(client: PoolClient, sql: string, expectBytes = 0): Promise<Buffer> {
  const { Query } = (await import('pg')).default;
  return new Promise<Buffer>((resolve, reject) => {
    let buf = Buffer.allocUnsafe(Math.max(64 * 1024, Math.ceil(expectBytes * 1.1)));
    let len = 0;
    class CopyOut extends Query {
      // The parser reuses its buffer: each message's bytes are copied out before the next arrives.
      // (By set: Buffer#copy makes a typed-array view per call, and a COPY sends a message per row.)
      handleCopyData(msg: CopyData) {
        const n = msg.chunk.length;
        if (len + n > buf.length) {
          const grown = Buffer.allocUnsafe(Math.max(buf.length * 2, len + n));
          grown.set(buf.subarray(0, len));
          buf = grown;
        }
        buf.set(msg.chunk, len);
        len += n;
      }
    }
    client.query(new CopyOut(sql, [], (err: Error | undefined) => (err ? reject(err) : resolve(buf.subarray(0, len)))));
  });
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Microseconds from the Unix epoch to PostgreSQL's (2000-01-01). */
const PG_EPOCH_MS = 946_684_800_000;

/**
 * A walk over binary COPY data: `tuple()` starts the next row (its field count, -1 at the end),
 * `field()` moves to the next field and returns its length (-1: null) with `p` at its first byte.
 */
export class CopyReader {
  p: number;
  private next: number;

  constructor(readonly b: Buffer) {
    if (b.length < 19 || !b.subarray(0, 11).equals(SIGNATURE)) throw new Error('not binary COPY data');
    this.p = this.next = 19 + b.readInt32BE(15);
  }

  tuple(): number {
    this.p = this.next;
    if (this.p + 2 > this.b.length) return -1;
    const n = this.b.readInt16BE(this.p);
    this.next = this.p + 2;
    return n;
  }

  field(): number {
    const len = this.b.readInt32BE(this.next);
    this.p = this.next + 4;
    this.next = this.p + Math.max(len, 0);
    return len;
  }

  /** The current field as a number: int8 (exact below 2^53); `ifNull` when null. */
  int8(len: number, ifNull: number): number {
    return len < 0 ? ifNull : this.b.readInt32BE(this.p) * 4294967296 + this.b.readUInt32BE(this.p + 4);
  }

  /** The current int4 field (null: null). */
  int4(len: number): number | null {
    return len < 0 ? null : this.b.readInt32BE(this.p);
  }

  /** The current timestamptz field as milliseconds since the Unix epoch (-1: null). */
  ms(len: number): number {
    return len < 0 ? -1 : Math.floor(this.int8(len, 0) / 1000) + PG_EPOCH_MS;
  }

  /** The current text field. */
  text(len: number): string {
    return this.b.toString('utf8', this.p, this.p + len);
  }
}

/** A timestamp as an SQL literal (COPY takes no parameters; the value is ours, never the caller's text). */
export const timestampLiteral = (d: Date) => `'${d.toISOString()}'::timestamptz`;

/** A text as an SQL string literal (COPY takes no parameters), escaped whatever standard_conforming_strings says. */
export const textLiteral = (s: string) => `E'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
