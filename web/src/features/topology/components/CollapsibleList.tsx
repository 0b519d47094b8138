// A list inside a card: collapses after 5 or 6 rows behind 'show more ...' and scrolls beyond
// 200 px (spec/2 §2.6).
import { useState, type ReactNode } from 'react';
import { LIST_MAX_HEIGHT_PX, visibleRows } from '../properties';

export function CollapsibleList<T>({
  items,
  render,
  label,
}: {
  items: readonly T[];
  render(item: T): ReactNode;
  label: string;
}) {
  const [expanded, setExpanded] = useState(false);
  const shown = visibleRows(items.length, expanded);
  return (
    <div>
      <ul aria-label={label} className="space-y-1 overflow-y-auto" style={{ maxHeight: LIST_MAX_HEIGHT_PX }}>
        {items.slice(0, shown).map((item, i) => (
          <li key={i}>{render(item)}</li>
        ))}
      </ul>
      {shown < items.length && (
        <button
          type="button"
          onClick={() => setExpanded(true)}
          className="mt-1 cursor-pointer text-[12px] font-medium text-primary hover:underline"
        >
          show more ...
        </button>
      )}
    </div>
  );
}
