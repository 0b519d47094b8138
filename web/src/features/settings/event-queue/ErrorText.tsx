// An error message in a table cell: shown whole when short; when long, its first line opens the
// full text in a modal (spec/3: the most common error opens in a modal).
import { useState } from 'react';
import { Dialog, DialogContent } from '../../../ui/dialog';

const SHORT = 40;

export function ErrorText({ text, title = 'Most common error' }: { text: string | null; title?: string }) {
  const [open, setOpen] = useState(false);
  if (!text) return <span className="text-muted">—</span>;
  const firstLine = text.split('\n', 1)[0]!;
  if (text.length <= SHORT && firstLine === text) return <span className="text-danger">{text}</span>;
  return (
    <>
      <button
        type="button"
        className="max-w-48 cursor-pointer truncate text-left text-danger underline decoration-dotted underline-offset-2"
        title="Show the whole error"
        onClick={() => setOpen(true)}
      >
        {firstLine.length > SHORT ? `${firstLine.slice(0, SHORT)}…` : `${firstLine} …`}
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title={title} size="lg">
          <pre className="whitespace-pre-wrap break-words font-mono text-[12.5px] text-foreground">{text}</pre>
        </DialogContent>
      </Dialog>
    </>
  );
}
