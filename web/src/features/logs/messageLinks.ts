// Links inside log messages (spec/2 §2.9): only text starting with http:// or https:// becomes a
// link; anything else (javascript:, file:, bare hosts) stays text.

export type MessagePart = { type: 'text'; text: string } | { type: 'link'; text: string; href: string };

const URL_PATTERN = /\bhttps?:\/\/[^\s"'<>`]+/gi;
/** Punctuation that usually ends a sentence rather than the URL. */
const TRAILING = /[.,;:!?)\]}]+$/;

export function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The message split into text and http(s) links, in order; joining the texts gives the message back. */
export function splitMessageLinks(message: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let at = 0;
  for (const m of message.matchAll(URL_PATTERN)) {
    let url = m[0];
    const trailing = TRAILING.exec(url)?.[0] ?? '';
    if (trailing) url = url.slice(0, -trailing.length);
    const start = m.index;
    if (!isHttpUrl(url)) continue;
    if (start > at) parts.push({ type: 'text', text: message.slice(at, start) });
    parts.push({ type: 'link', text: url, href: url });
    at = start + url.length;
  }
  if (at < message.length) parts.push({ type: 'text', text: message.slice(at) });
  return parts;
}
