// Gzip of an answer whose bulk stays the same from one request to the next while its tail changes
// (a summary answer ends with the request's `duration`): the bulk is deflated once and each request
// adds only its tail. The bulk's raw deflate is sync-flushed, so it ends on a byte boundary without
// the final flag; the tail is a final block of its own, and the CRC-32 continues over it.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** The raw deflate of an answer's constant part (sync-flushed, so more can follow), its CRC-32 and length. */
export interface DeflatedPrefix {
  data: Buffer;
  crc: number;
  length: number;
}

const deflateRaw = promisify(zlib.deflateRaw);
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** Deflates `body` as the constant part of answers (level 1, on the thread pool). */
export function deflatePrefix(body: Buffer): Promise<DeflatedPrefix> {
  return deflateRaw(body, { level: 1, finishFlush: zlib.constants.Z_SYNC_FLUSH }).then((data) => ({
    data,
    crc: zlib.crc32(body),
    length: body.length,
  }));
}

/** One gzip member of the deflated constant part followed by `tail`. */
export async function gzipWithPrefix(prefix: Promise<DeflatedPrefix>, tail: Buffer): Promise<Buffer<ArrayBuffer>> {
  const p = await prefix;
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(zlib.crc32(tail, p.crc), 0);
  trailer.writeUInt32LE((p.length + tail.length) % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, p.data, zlib.deflateRawSync(tail), trailer]);
}
