import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown';

describe('notification body Markdown', () => {
  it('reads headings, paragraphs, lists and code blocks', () => {
    expect(
      parseMarkdown('# Check failed\n\nThe check **api** is\nunhealthy.\n\n- one\n- two\n\n```\nerr: refused\n```'),
    ).toEqual([
      { kind: 'heading', level: 1, content: [{ kind: 'text', text: 'Check failed' }] },
      {
        kind: 'paragraph',
        content: [
          { kind: 'text', text: 'The check ' },
          { kind: 'strong', text: 'api' },
          { kind: 'text', text: ' is unhealthy.' },
        ],
      },
      { kind: 'list', items: [[{ kind: 'text', text: 'one' }], [{ kind: 'text', text: 'two' }]] },
      { kind: 'code', text: 'err: refused' },
    ]);
  });

  it('links only http(s) addresses and keeps anything else as text', () => {
    expect(parseInline('[Open](https://opsdeck/health?checkId=1) `x` *y* [bad](javascript:alert(1))')).toEqual([
      { kind: 'link', text: 'Open', href: 'https://opsdeck/health?checkId=1' },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'x' },
      { kind: 'text', text: ' ' },
      { kind: 'em', text: 'y' },
      { kind: 'text', text: ' [bad](javascript:alert(1))' },
    ]);
  });
});
