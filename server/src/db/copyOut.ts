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
 * `expectBytes` (the caller's last size: one allocation instead of a doubling series) and taken from
 * the spare COPY buffers when one is big enough. Give it back with giveCopyBuffer once read.
 */
export async function copyOutBinary(client: PoolClient, sql: string, expectBytes = 0): Promise<Buffer> {
  const { Query } = (await import('pg')).default;
  return new Promise<Buffer>((resolve, reject) => {
    let buf = takeCopyBuffer(Math.ceil(expectBytes * 1.1));
    let len = 0;
    class CopyOut extends Query {
      // The parser reuses its buffer: each message's bytes are copied out before the next arrives.
      handleCopyData(msg: CopyData) {
        const n = msg.chunk.length;
        if (len + n > buf.length) {
          const grown = Buffer.allocUnsafe(Math.max(buf.length * 2, len + n));
          buf.copy(grown, 0, 0, len);
          buf = grown;
        }
        msg.chunk.copy(buf, len);
        len += n;
      }
    }
    client.query(
      new CopyOut(sql, [], (err: Error | undefined) => {
        if (!err) return resolve(buf.subarray(0, len));
        giveCopyBuffer(buf);
        reject(err);
      }),
    );
  });
}

/**
 * Spare buffers for binary COPY reads, reused. A replica reads several MB of edges a few times a
 * minute even when nobody asks (the edge job, the precomputed ranges), and V8 frees a dead Buffer
 * only at its next collection, which an idle server runs seldom: without reuse, tens of MB of dead
 * buffers stayed in RSS (bench/README.md, health-summary-memory).
 */
const spare: Array<{ b: Buffer; at: number }> = [];
const SPARE_MAX = 4;
const SPARE_BYTES_MAX = 32 * 1_048_576;
/**
 * A spare not reused for this long is let go: what the minute's background reads use stays, what
 * a burst of requests left does not.
 */
export const SPARE_IDLE_MS = 90_000;
const MIN_COPY_BUFFER = 64 * 1024;

function prune(now: number): void {
  while (spare.length && now - spare[0]!.at > SPARE_IDLE_MS) spare.shift();
}

/** The smallest spare buffer of at least `min` bytes, or a new one. */
export function takeCopyBuffer(min: number, now = Date.now()): Buffer {
  prune(now);
  let best = -1;
  for (let i = 0; i < spare.length; i++)
    if (spare[i]!.b.length >= min && (best < 0 || spare[i]!.b.length < spare[best]!.b.length)) best = i;
  if (best >= 0) return spare.splice(best, 1)[0]!.b;
  return Buffer.allocUnsafe(Math.max(MIN_COPY_BUFFER, min));
}

/**
 * Gives back the buffer of COPY data (copyOutBinary's result) once nothing reads it any more; other
 * buffers are ignored, and so is one grown to more than twice its data (the next read of that kind
 * is sized from its data). The last given are kept: SPARE_MAX of them, SPARE_BYTES_MAX in all.
 */
export function giveCopyBuffer(data: Buffer, now = Date.now()): void {
  const whole = data.buffer;
  if (!(whole instanceof ArrayBuffer) || whole.byteLength < MIN_COPY_BUFFER) return;
  if (whole.byteLength > 2 * data.length + MIN_COPY_BUFFER) return;
  if (spare.some((s) => s.b.buffer === whole)) return;
  spare.push({ b: Buffer.from(whole), at: now });
  prune(now);
  let bytes = spare.reduce((n, s) => n + s.b.length, 0);
  while (spare.length > SPARE_MAX || bytes > SPARE_BYTES_MAX) bytes -= spare.shift()!.b.length;
}

/** How many spare COPY buffers are kept, and their bytes (tests, metrics). */
export function spareCopyBuffers(): { count: number; bytes: number } {
  return { count: spare.length, bytes: spare.reduce((n, s) => n + s.b.length, 0) };
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
