// Markdown (a rule's rendered template) into each channel's own markup: HTML (email), Slack mrkdwn,
// Google Chat text, Telegram HTML and MarkdownV2 (escaped as the Bot API requires), the Markdown subset
// Adaptive Cards show, and plain text. One small parser (the CommonMark constructs templates use:
// paragraphs, headings, lists, quotes, fenced code, rules; bold, italic, strike, code, links) and one
// renderer per markup, so every channel reads the same structure.

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
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      endParagraph();
      blocks.push({ kind: 'heading', level: heading[1].length, content: parseInline(heading[2]) });
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

/** How one markup writes each construct; `text` escapes literal text. */
interface Markup {
  text(s: string): string;
  code(s: string): string;
  strong(s: string): string;
  em(s: string): string;
  strike(s: string): string;
  link(label: string, href: string, plainLabel: string): string;
  heading(s: string, level: number): string;
  item(s: string, bullet: string, depth: number): string;
  bullet(ordered: boolean, number: number): string;
  codeBlock(s: string): string;
  quote(s: string): string;
  rule: string;
  /** Between blocks. */
  gap: string;
  lineBreak: string;
}

function render(blocks: Block[], m: Markup): string {
  const inline = (nodes: Inline[]): string =>
    nodes
      .map((n) => {
        switch (n.kind) {
          case 'text':
            return m.text(n.text);
          case 'code':
            return m.code(n.text);
          case 'break':
            return m.lineBreak;
          case 'link':
            return m.link(inline(n.children), n.href, plain(n.children));
          default:
            return m[n.kind](inline(n.children));
        }
      })
      .join('');
  return blocks
    .map((b) => {
      switch (b.kind) {
        case 'paragraph':
          return inline(b.content);
        case 'heading':
          return m.heading(inline(b.content), b.level);
        case 'list':
          return b.items.map((it) => m.item(inline(it.content), m.bullet(b.ordered, it.number), it.depth)).join('\n');
        case 'code':
          return m.codeBlock(b.text);
        case 'quote':
          return m.quote(render(b.blocks, m));
        case 'rule':
          return m.rule;
      }
    })
    .join(m.gap);
}

function plain(nodes: Inline[]): string {
  return nodes
    .map((n) => (n.kind === 'text' || n.kind === 'code' ? n.text : n.kind === 'break' ? ' ' : plain(n.children)))
    .join('');
}

const indent = (depth: number) => '  '.repeat(depth);
const prefixLines = (s: string, prefix: string) =>
  s
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Only http(s) and mailto links are kept as links; anything else (javascript:) becomes text. */
const safeHref = (href: string) => /^(https?:|mailto:)/i.test(href);

/** HTML for email bodies; links open the console, lists nest by indentation. */
export function markdownToHtml(src: string): string {
  return htmlBlocks(parseMarkdown(src));
}

function htmlBlocks(blocks: Block[]): string {
  const m: Markup = {
    text: escapeHtml,
    code: (s) => `<code>${escapeHtml(s)}</code>`,
    strong: (s) => `<strong>${s}</strong>`,
    em: (s) => `<em>${s}</em>`,
    strike: (s) => `<del>${s}</del>`,
    link: (label, href) => (safeHref(href) ? `<a href="${escapeHtml(href)}">${label}</a>` : label),
    heading: (s, level) => `<h${level}>${s}</h${level}>`,
    item: (s) => s,
    bullet: () => '',
    codeBlock: (s) => `<pre><code>${escapeHtml(s)}</code></pre>`,
    quote: (s) => `<blockquote>${s}</blockquote>`,
    rule: '<hr>',
    gap: '\n',
    lineBreak: '<br>\n',
  };
  return blocks
    .map((b) => {
      if (b.kind === 'paragraph') return `<p>${render([b], m)}</p>`;
      if (b.kind === 'quote') return `<blockquote>${htmlBlocks(b.blocks)}</blockquote>`;
      if (b.kind !== 'list') return render([b], m);
      // Nested <ul>/<ol> from the items' depths.
      const tag = b.ordered ? 'ol' : 'ul';
      let html = '';
      let depth = -1;
      for (const it of b.items) {
        const d = Math.min(it.depth, depth + 1);
        if (d > depth) html += `<${tag}>`.repeat(d - depth);
        else html += '</li>' + `</${tag}></li>`.repeat(depth - d);
        html += `<li>${render([{ kind: 'paragraph', content: it.content }], m)}`;
        depth = d;
      }
      return html + '</li>' + `</${tag}></li>`.repeat(depth) + `</${tag}>`;
    })
    .join('\n');
}

/** Slack mrkdwn (https://api.slack.com/reference/surfaces/formatting): & < > escaped, <url|text> links. */
export function markdownToSlack(src: string): string {
  return render(
    parseMarkdown(src),
    chatMarkup((s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')),
  );
}

/** Google Chat text messages: Slack-like *bold* _italic_ ~strike~ and <url|text>, text not escaped. */
export function markdownToGoogleChat(src: string): string {
  return render(
    parseMarkdown(src),
    chatMarkup((s) => s),
  );
}

function chatMarkup(text: (s: string) => string): Markup {
  return {
    text,
    code: (s) => `\`${s}\``,
    strong: (s) => `*${s}*`,
    em: (s) => `_${s}_`,
    strike: (s) => `~${s}~`,
    link: (label, href, plainLabel) => (plainLabel === href ? `<${href}>` : `<${href}|${label}>`),
    heading: (s) => `*${s}*`,
    item: (s, bullet, depth) => `${indent(depth)}${bullet} ${s}`,
    bullet: (ordered, n) => (ordered ? `${n}.` : '•'),
    codeBlock: (s) => '```\n' + s + '\n```',
    quote: (s) => prefixLines(s, '> '),
    rule: '───',
    gap: '\n\n',
    lineBreak: '\n',
  };
}

/** Telegram Bot API `parse_mode: HTML`: only <, > and & are escaped; tags b, i, s, code, pre, a, blockquote. */
export function markdownToTelegramHtml(src: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return render(parseMarkdown(src), {
    text: esc,
    code: (s) => `<code>${esc(s)}</code>`,
    strong: (s) => `<b>${s}</b>`,
    em: (s) => `<i>${s}</i>`,
    strike: (s) => `<s>${s}</s>`,
    link: (label, href) => (safeHref(href) ? `<a href="${escapeHtml(href)}">${label}</a>` : label),
    heading: (s) => `<b>${s}</b>`,
    item: (s, bullet, depth) => `${indent(depth)}${bullet} ${s}`,
    bullet: (ordered, n) => (ordered ? `${n}.` : '•'),
    codeBlock: (s) => `<pre>${esc(s)}</pre>`,
    quote: (s) => `<blockquote>${s}</blockquote>`,
    rule: '———',
    gap: '\n\n',
    lineBreak: '\n',
  });
}

/** Telegram MarkdownV2: every one of _*[]()~`>#+-=|{}.! escaped in text; ` and \ in code; ) and \ in URLs. */
export function escapeTelegramMarkdownV2(s: string): string {
  return s.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, '\\$&');
}

export function markdownToTelegramMarkdownV2(src: string): string {
  const esc = escapeTelegramMarkdownV2;
  const escCode = (s: string) => s.replace(/[`\\]/g, '\\$&');
  return render(parseMarkdown(src), {
    text: esc,
    code: (s) => `\`${escCode(s)}\``,
    strong: (s) => `*${s}*`,
    em: (s) => `_${s}_`,
    strike: (s) => `~${s}~`,
    link: (label, href) => (safeHref(href) ? `[${label}](${href.replace(/[)\\]/g, '\\$&')})` : label),
    heading: (s) => `*${s}*`,
    item: (s, bullet, depth) => `${indent(depth)}${bullet} ${s}`,
    bullet: (ordered, n) => (ordered ? `${n}\\.` : '•'),
    codeBlock: (s) => '```\n' + escCode(s) + '\n```',
    quote: (s) => prefixLines(s, '>'),
    rule: '———',
    gap: '\n\n',
    lineBreak: '\n',
  });
}

/** The Markdown subset an Adaptive Card TextBlock shows: bold, italic, lists, links (no headings, code). */
export function markdownToAdaptiveCard(src: string): string {
  return render(parseMarkdown(src), {
    text: (s) => s,
    code: (s) => s,
    strong: (s) => `**${s}**`,
    em: (s) => `_${s}_`,
    strike: (s) => s,
    link: (label, href) => `[${label}](${href})`,
    heading: (s) => `**${s}**`,
    item: (s, bullet, depth) => `${indent(depth)}${bullet} ${s}`,
    bullet: (ordered, n) => (ordered ? `${n}.` : '-'),
    codeBlock: (s) => s,
    quote: (s) => s,
    rule: '---',
    gap: '\n\n',
    lineBreak: '\n',
  });
}

/** Plain text: markup dropped, a link written "label (url)" unless the label is the URL. */
export function markdownToText(src: string): string {
  return render(parseMarkdown(src), {
    text: (s) => s,
    code: (s) => s,
    strong: (s) => s,
    em: (s) => s,
    strike: (s) => s,
    link: (label, href, plainLabel) => (plainLabel === href.replace(/^mailto:/, '') ? label : `${label} (${href})`),
    heading: (s) => s,
    item: (s, bullet, depth) => `${indent(depth)}${bullet} ${s}`,
    bullet: (ordered, n) => (ordered ? `${n}.` : '-'),
    codeBlock: (s) => s,
    quote: (s) => prefixLines(s, '> '),
    rule: '---',
    gap: '\n\n',
    lineBreak: '\n',
  });
}

/** Cuts text to `max` characters, ending with "…" when it was longer. */
export function truncate(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, Math.max(0, max - 1)) + '…';
}
