// A small Markdown parser for notification bodies (a rule's rendered template): the CommonMark
// constructs templates use — paragraphs, headings, lists, quotes, fenced code, rules; bold, italic,
// strike, code, links — as blocks and inline nodes that markdown.ts renders into each channel's markup.
// Anything not recognised stays text, so nothing is lost.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong' | 'em' | 'strike'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'break' };

export type Block =
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'heading'; level: number; content: Inline[] }
  | { kind: 'list'; ordered: boolean; items: { depth: number; number: number; content: Inline[] }[] }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'rule' };

const LIST_ITEM = /^(\s*)([-*+]|(\d{1,9})[.)])\s+(.*)$/;

/** Markdown text into blocks. Anything not recognised is text, so nothing is lost. */
export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const endParagraph = () => {
    if (para.length) blocks.push({ kind: 'paragraph', content: parseInlineLines(para) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      endParagraph();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) code.push(lines[i]);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (!line.trim()) {
      endParagraph();
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      endParagraph();
      // A closing run of # is dropped when a space comes before it ("## Title ##").
      let text = heading[2].trimEnd();
      const unclosed = text.replace(/#+$/, '');
      if (unclosed === '' || /\s$/.test(unclosed)) text = unclosed.trimEnd();
      blocks.push({ kind: 'heading', level: heading[1].length, content: parseInline(text) });
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endParagraph();
      blocks.push({ kind: 'rule' });
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      endParagraph();
      const quoted: string[] = [];
      for (; i < lines.length && /^\s{0,3}>/.test(lines[i]); i++) quoted.push(lines[i].replace(/^\s{0,3}>\s?/, ''));
      i--;
      blocks.push({ kind: 'quote', blocks: parseMarkdown(quoted.join('\n')) });
      continue;
    }
    if (LIST_ITEM.test(line)) {
      endParagraph();
      const first = LIST_ITEM.exec(line)!;
      const list: Extract<Block, { kind: 'list' }> = { kind: 'list', ordered: first[3] !== undefined, items: [] };
      for (; i < lines.length; i++) {
        const m = LIST_ITEM.exec(lines[i]);
        if (m) {
          const depth = Math.floor(m[1].replace(/\t/g, '    ').length / 2);
          const number = m[3] !== undefined ? Number(m[3]) : list.items.filter((it) => it.depth === depth).length + 1;
          list.items.push({ depth, number, content: parseInline(m[4]) });
        } else if (lines[i].trim() && /^\s+/.test(lines[i]) && list.items.length) {
          // A continuation line of the item above.
          const last = list.items[list.items.length - 1];
          last.content.push({ kind: 'break' }, ...parseInline(lines[i].trim()));
        } else break;
      }
      i--;
      blocks.push(list);
      continue;
    }
    para.push(line.trim());
  }
  endParagraph();
  return blocks;
}

function parseInlineLines(lines: string[]): Inline[] {
  const out: Inline[] = [];
  lines.forEach((line, n) => {
    if (n) out.push({ kind: 'break' });
    out.push(...parseInline(line.replace(/\s+\\$|\s{2,}$/, '')));
  });
  return out;
}

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Inline Markdown into nodes. */
export function parseInline(src: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\' && i + 1 < src.length && /[\\`*_{}[\]()#+\-.!~>|<]/.test(src[i + 1])) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const end = src.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        out.push({ kind: 'code', text: src.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    const pair = src.slice(i, i + 2);
    if (pair === '**' || pair === '__' || pair === '~~') {
      const end = closing(src, pair, i + 2);
      if (end > i + 2 && (pair !== '__' || (!isWordChar(src[i - 1]) && !isWordChar(src[end + 2])))) {
        flush();
        const kind = pair === '~~' ? 'strike' : 'strong';
        out.push({ kind, children: parseInline(src.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
    }
    if ((c === '*' || c === '_') && src[i + 1] !== c && src[i + 1] !== ' ' && (c === '*' || !isWordChar(src[i - 1]))) {
      const end = closing(src, c, i + 1);
      if (end > i + 1 && (c === '*' || !isWordChar(src[end + 1]))) {
        flush();
        out.push({ kind: 'em', children: parseInline(src.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (c === '[') {
      const m = /^\[((?:\\.|[^\]\\])*)\]\(\s*<?((?:[^()\s>]|\([^()\s]*\))+)>?(?:\s+"[^"]*")?\s*\)/.exec(src.slice(i));
      if (m) {
        flush();
        out.push({ kind: 'link', href: m[2], children: parseInline(m[1]) });
        i += m[0].length;
        continue;
      }
    }
    if (c === '<') {
      const m = /^<((?:https?|mailto):[^>\s]+)>/.exec(src.slice(i));
      if (m) {
        flush();
        out.push({ kind: 'link', href: m[1], children: [{ kind: 'text', text: m[1].replace(/^mailto:/, '') }] });
        i += m[0].length;
        continue;
      }
    }
    text += c;
    i++;
  }
  flush();
  return out;
}

/** Where `delim` closes (not after a space, not inside code), or -1. */
function closing(src: string, delim: string, from: number): number {
  for (let j = from; j < src.length; j++) {
    if (src[j] === '\\') {
      j++;
      continue;
    }
    if (src[j] === '`') {
      const end = src.indexOf('`', j + 1);
      if (end > j) j = end;
      continue;
    }
    if (src.startsWith(delim, j) && src[j - 1] !== ' ' && j > from) {
      if (delim.length === 1 && src[j + 1] === delim) {
        j++;
        continue;
      }
      return j;
    }
  }
  return -1;
}
