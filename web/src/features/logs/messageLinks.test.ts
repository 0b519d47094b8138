import { describe, expect, it } from 'vitest';
import { splitMessageLinks } from './messageLinks';

describe('links in log messages', () => {
  it('links http and https URLs and leaves the rest as text', () => {
    expect(splitMessageLinks('GET https://shop.example/cart?id=1 took 3ms, see http://docs.example.')).toEqual([
      { type: 'text', text: 'GET ' },
      { type: 'link', text: 'https://shop.example/cart?id=1', href: 'https://shop.example/cart?id=1' },
      { type: 'text', text: ' took 3ms, see ' },
      { type: 'link', text: 'http://docs.example', href: 'http://docs.example' },
      { type: 'text', text: '.' },
    ]);
  });

  it('never links other schemes', () => {
    for (const m of ['javascript:alert(1)', 'ftp://files.example/x', 'file:///etc/passwd', 'www.example.com'])
      expect(splitMessageLinks(m)).toEqual([{ type: 'text', text: m }]);
  });

  it('gives the message back when its parts are joined', () => {
    const m = 'a https://x.example/(b) c';
    expect(
      splitMessageLinks(m)
        .map((p) => p.text)
        .join(''),
    ).toBe(m);
  });
});
