// Content negotiation for compressed answers (RFC 9110 §12.5.3).

/** Whether an Accept-Encoding header takes gzip: named (or x-gzip) or `*`, with a q above 0. */
export function acceptsGzip(header: string | null | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const ok = !q || Number(q.slice(2)) > 0;
    if (name === 'gzip' || name === 'x-gzip') return ok;
    if (name === '*') star = ok;
  }
  return star;
}
