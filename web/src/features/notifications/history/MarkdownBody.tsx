// A notification's body rendered from its Markdown (see ./markdown.ts): React elements only.
import { Fragment, useMemo } from 'react';
import { parseMarkdown, type Inline } from './markdown';

function InlineText({ parts }: { parts: Inline[] }) {
  return (
    <>
      {parts.map((p, i) => {
        switch (p.kind) {
          case 'strong':
            return <strong key={i}>{p.text}</strong>;
          case 'em':
            return <em key={i}>{p.text}</em>;
          case 'code':
            return (
              <code key={i} className="rounded bg-surface-muted px-1 font-mono text-[12.5px]">
                {p.text}
              </code>
            );
          case 'link':
            return (
              <a key={i} href={p.href} target="_blank" rel="noreferrer" className="text-primary hover:underline">
                {p.text}
              </a>
            );
          default:
            return <Fragment key={i}>{p.text}</Fragment>;
        }
      })}
    </>
  );
}

export function MarkdownBody({ text }: { text: string }) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return (
    <div className="space-y-2 text-[13.5px] leading-6 text-foreground" data-testid="notification-body">
      {blocks.map((b, i) => {
        switch (b.kind) {
          case 'heading':
            return (
              <p key={i} role="heading" aria-level={b.level} className="font-semibold">
                <InlineText parts={b.content} />
              </p>
            );
          case 'list':
            return (
              <ul key={i} className="list-disc space-y-0.5 pl-5">
                {b.items.map((item, j) => (
                  <li key={j}>
                    <InlineText parts={item} />
                  </li>
                ))}
              </ul>
            );
          case 'code':
            return (
              <pre key={i} className="overflow-x-auto rounded-md bg-surface-muted p-3 font-mono text-[12.5px]">
                {b.text}
              </pre>
            );
          default:
            return (
              <p key={i}>
                <InlineText parts={b.content} />
              </p>
            );
        }
      })}
    </div>
  );
}
