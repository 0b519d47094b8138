// The Markdown converter: each channel's markup from the same template output.
import { describe, expect, it } from 'vitest';
import {
  markdownToAdaptiveCard,
  markdownToGoogleChat,
  markdownToHtml,
  markdownToSlack,
  markdownToTelegramHtml,
  markdownToTelegramMarkdownV2,
  markdownToText,
  parseInline,
  truncate,
} from './markdown.js';

const sample = [
  '## Check **api** failed',
  '',
  'Status: *down* since `10:02` — see [the check](https://ops.example.com/health?id=1&x=2).',
  '',
  '- first',
  '- second with ~~old~~ value',
  '  - nested',
  '',
  '> quoted <b> & more',
].join('\n');

describe('Markdown into channel markup', () => {
  it('writes HTML with escaped text, nested lists and only http(s)/mailto links', () => {
    const html = markdownToHtml(sample);
    expect(html).toContain('<h2>Check <strong>api</strong> failed</h2>');
    expect(html).toContain(
      '<p>Status: <em>down</em> since <code>10:02</code> — see <a href="https://ops.example.com/health?id=1&amp;x=2">the check</a>.</p>',
    );
    expect(html).toContain('<ul><li>first</li><li>second with <del>old</del> value<ul><li>nested</li></ul></li></ul>');
    expect(html).toContain('<blockquote><p>quoted &lt;b&gt; &amp; more</p></blockquote>');
    expect(markdownToHtml('[x](javascript:alert(1))')).toBe('<p>x</p>');
    expect(markdownToHtml('a\nb')).toBe('<p>a<br>\nb</p>');
  });

  it('writes Slack mrkdwn: single-character emphasis, <url|text> links, entities escaped', () => {
    const s = markdownToSlack(sample);
    expect(s).toContain('*Check *api* failed*');
    expect(s).toContain('Status: _down_ since `10:02` — see <https://ops.example.com/health?id=1&x=2|the check>.');
    expect(s).toContain('• second with ~old~ value\n  • nested');
    expect(s).toContain('> quoted &lt;b&gt; &amp; more');
    expect(markdownToSlack('<https://a.example>')).toBe('<https://a.example>');
  });

  it('writes Google Chat text like Slack but without entities', () => {
    expect(markdownToGoogleChat('**a** & [b](https://b.example)')).toBe('*a* & <https://b.example|b>');
  });

  it('writes Telegram HTML with only <, > and & escaped', () => {
    const t = markdownToTelegramHtml(sample);
    expect(t).toContain('<b>Check <b>api</b> failed</b>');
    expect(t).toContain('<i>down</i> since <code>10:02</code>');
    expect(t).toContain('<a href="https://ops.example.com/health?id=1&amp;x=2">the check</a>');
    expect(t).toContain('<blockquote>quoted &lt;b&gt; &amp; more</blockquote>');
    expect(markdownToTelegramHtml('```\nif a < b {}\n```')).toBe('<pre>if a &lt; b {}</pre>');
  });

  it('escapes every MarkdownV2 reserved character outside markup', () => {
    expect(markdownToTelegramMarkdownV2('1.5 - (a) [b] #c +d =e |f {g} !h _i_')).toBe(
      '1\\.5 \\- \\(a\\) \\[b\\] \\#c \\+d \\=e \\|f \\{g\\} \\!h _i_',
    );
    expect(markdownToTelegramMarkdownV2('**x.y** `a\\b` [l.x](https://e.com/a_(b))')).toBe(
      '*x\\.y* `a\\\\b` [l\\.x](https://e.com/a_(b\\))',
    );
    expect(markdownToTelegramMarkdownV2('1. one\n2. two')).toBe('1\\. one\n2\\. two');
  });

  it('keeps the Markdown Adaptive Cards show and drops what they do not', () => {
    expect(markdownToAdaptiveCard('# T\n\n**b** `c` ~~d~~\n\n1. x')).toBe('**T**\n\n**b** c d\n\n1. x');
  });

  it('writes plain text with link targets', () => {
    expect(markdownToText('**Down**: [check](https://e.com/c) <https://e.com>')).toBe(
      'Down: check (https://e.com/c) https://e.com',
    );
  });

  it('leaves snake_case words, lone stars and escaped characters as text', () => {
    expect(parseInline('snake_case_name 2 * 3 \\*literal\\*')).toEqual([
      { kind: 'text', text: 'snake_case_name 2 * 3 *literal*' },
    ]);
  });

  it('truncates with an ellipsis', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
  });
});
