// The small Markdown subset notification bodies use (headings, paragraphs, lists, **bold**, _italic_,
// `code`, [links](url)) turned into HTML for email. Everything else is escaped text: a resource name
// or an error message can never inject markup into a mail.

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Inline markup of one (already escaped) line. */
function inline(escaped: string): string {
  return escaped
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2">$1</a>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])_([^_]+)_(?=$|[\s).,;:!?])/g, '$1<em>$2</em>');
}

/** Markdown → an HTML fragment. */
export function markdownToHtml(markdown: string): string {
  const out: string[] = [];
  let paragraph: string[] = [];
  let list: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length) out.push(`<p>${paragraph.join('<br>\n')}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (list.length) out.push(`<ul>\n${list.map((li) => `<li>${li}</li>`).join('\n')}\n</ul>`);
    list = [];
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (!line.trim()) {
      flushParagraph();
      flushList();
    } else if (heading) {
      flushParagraph();
      flushList();
      const level = heading[1]!.length;
      out.push(`<h${level}>${inline(escapeHtml(heading[2]!))}</h${level}>`);
    } else if (item) {
      flushParagraph();
      list.push(inline(escapeHtml(item[1]!)));
    } else {
      flushList();
      paragraph.push(inline(escapeHtml(line.trim())));
    }
  }
  flushParagraph();
  flushList();
  return out.join('\n');
}

/** A whole HTML mail: the title as heading, the body below, plain styling mail clients keep. */
export function htmlDocument(title: string, markdownBody: string): string {
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8"><title>' + escapeHtml(title) + '</title></head>',
    '<body style="font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; font-size: 14px; color: #1f2328;">',
    `<h2 style="font-size: 18px; margin: 0 0 12px;">${escapeHtml(title)}</h2>`,
    markdownToHtml(markdownBody),
    '</body></html>',
  ].join('\n');
}
