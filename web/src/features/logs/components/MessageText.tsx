// A log message with its http(s) URLs as links (spec/2 §2.9); other text, other schemes included,
// stays text.
import { splitMessageLinks } from '../messageLinks';

export function MessageText({ message }: { message: string }) {
  return (
    <>
      {splitMessageLinks(message).map((part, i) =>
        part.type === 'link' ? (
          <a
            key={i}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer"
            className="text-primary underline-offset-2 hover:underline"
            onClick={(e) => e.stopPropagation()}
          >
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
