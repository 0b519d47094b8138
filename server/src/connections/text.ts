// Small text helpers for output shown to people: the head or tail of a long text, and a byte buffer
// that stops growing at a cap (process output, response bodies).

/** The last `max` characters of a text, marked when cut. */
export function tail(text: string, max = 1_000): string {
  const t = text.trim();
  return t.length <= max ? t : `…${t.slice(-max)}`;
}

/** The first `max` characters of a text, marked when cut. */
export function head(text: string, max = 200): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max)}…`;
}

/** Appends to a buffer list until `limit` bytes; reports whether anything was dropped. */
export class CappedBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  push(chunk: Buffer): void {
    if (this.size >= this.limit) {
      this.truncated = true;
      return;
    }
    const room = this.limit - this.size;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.chunks.push(part);
    this.size += part.length;
  }
  get length(): number {
    return this.size;
  }
  toString(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
