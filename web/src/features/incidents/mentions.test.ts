import { describe, expect, it } from 'vitest';
import { activeMention, insertMention, mentionedIds, parseMentions, plainText, toMarkup } from './mentions';

const jane = { id: 'p-1', display: 'Jane Doe' };
const jan = { id: 'p-2', display: 'Jan' };

describe('comment mentions', () => {
  it('splits stored markup into text and mentions', () => {
    expect(parseMentions('ping @[Jane Doe](user:p-1), look')).toEqual([
      { kind: 'text', text: 'ping ' },
      { kind: 'mention', display: 'Jane Doe', id: 'p-1' },
      { kind: 'text', text: ', look' },
    ]);
    expect(parseMentions('no mentions')).toEqual([{ kind: 'text', text: 'no mentions' }]);
    expect(plainText('@[Jane Doe](user:p-1) hi')).toBe('@Jane Doe hi');
    expect(mentionedIds('@[A](user:a) and @[B](user:b)')).toEqual(['a', 'b']);
  });

  it('finds the mention being typed only after whitespace or at the start', () => {
    expect(activeMention('hello @ja', 9)).toEqual({ start: 6, query: 'ja' });
    expect(activeMention('@', 1)).toEqual({ start: 0, query: '' });
    expect(activeMention('mail a@b', 8)).toBeUndefined();
    expect(activeMention('@jane doe', 9)).toBeUndefined();
  });

  it('inserts the chosen person and turns typed names into markup, longest name first', () => {
    const typed = insertMention('hi @ja', 3, 6, jane);
    expect(typed).toEqual({ text: 'hi @Jane Doe ', caret: 13 });
    expect(toMarkup('@Jane Doe and @Jan, not @Janet', [jan, jane])).toBe(
      '@[Jane Doe](user:p-1) and @[Jan](user:p-2), not @Janet',
    );
    expect(toMarkup('x@Jan', [jan])).toBe('x@Jan');
  });
});
