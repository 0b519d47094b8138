// Markdown (a rule's rendered template) into each channel's own markup: HTML (email), Slack mrkdwn,
// Google Chat text, Telegram HTML and MarkdownV2 (escaped as the Bot API requires), the Markdown subset
// Adaptive Cards show, and plain text. One parser (markdownParser.ts) and one renderer per markup, so
// every channel reads the same structure.
import { parseMarkdown, type Block, type Inline } from './markdownParser.js';

export { parseInline, parseMarkdown, type Block, type Inline } from './markdownParser.js';

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
