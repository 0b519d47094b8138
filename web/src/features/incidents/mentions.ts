// Comment mentions (spec/2 §5): the textarea shows '@Name', the stored comment carries the
// markup @[display](user:id). Finding the word being typed after '@', inserting a chosen person,
// turning the typed text into markup, and splitting stored markup into text and mentions.

export interface Mention {
  id: string;
  display: string;
}

export type Segment = { kind: 'text'; text: string } | { kind: 'mention'; id: string; display: string };

const MARKUP = /@\[([^\]]+)\]\(user:([^)\s]+)\)/g;

export function mentionMarkup(m: Mention): string {
  return `@[${m.display.replace(/[[\]]/g, '')}](user:${m.id})`;
}

/** Stored comment → text and mention segments, in order. */
export function parseMentions(comment: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const match of comment.matchAll(MARKUP)) {
    if (match.index > last) out.push({ kind: 'text', text: comment.slice(last, match.index) });
    out.push({ kind: 'mention', display: match[1], id: match[2] });
    last = match.index + match[0].length;
  }
  if (last < comment.length) out.push({ kind: 'text', text: comment.slice(last) });
  return out;
}

/** Stored comment → what a person reads ('@Jane Doe'). */
export function plainText(comment: string): string {
  return comment.replace(MARKUP, (_m, display: string) => `@${display}`);
}

/** The ids mentioned in a stored comment. */
export function mentionedIds(comment: string): string[] {
  return [...comment.matchAll(MARKUP)].map((m) => m[2]);
}

/**
 * The mention being typed at the caret: '@' at the start or after whitespace, then no
 * whitespace up to the caret. Undefined when the caret is not in one.
 */
export function activeMention(text: string, caret: number): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return undefined;
  if (at > 0 && !/\s/.test(before[at - 1])) return undefined;
  const query = before.slice(at + 1);
  if (/\s/.test(query) || query.length > 40) return undefined;
  return { start: at, query };
}

/** Replaces the '@query' from `start` to `caret` with '@Display ' and returns the new text and caret. */
export function insertMention(text: string, start: number, caret: number, m: Mention): { text: string; caret: number } {
  const inserted = `@${m.display} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** The typed text with every '@Display' of a chosen person turned into markup (longest names first). */
export function toMarkup(text: string, chosen: readonly Mention[]): string {
  const unique = [...new Map(chosen.map((m) => [m.id, m])).values()].sort(
    (a, b) => b.display.length - a.display.length,
  );
  let out = '';
  let i = 0;
  outer: while (i < text.length) {
    if (text[i] === '@' && (i === 0 || /\s/.test(text[i - 1]))) {
      for (const m of unique) {
        const token = `@${m.display}`;
        const after = text[i + token.length];
        if (text.startsWith(token, i) && (after === undefined || !/[\w]/.test(after))) {
          out += mentionMarkup(m);
          i += token.length;
          continue outer;
        }
      }
    }
    out += text[i];
    i++;
  }
  return out;
}
