// An icon button that copies a value, with the standard clipboard messages.
import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from './button';
import { copyToClipboard } from './clipboard';

export function CopyButton({
  value,
  label = 'Copy',
  successMessage,
}: {
  value: string;
  label?: string;
  successMessage?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="outline"
      size="icon-sm"
      aria-label={label}
      title={label}
      onClick={async () => {
        if (await copyToClipboard(value, successMessage)) {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        }
      }}
    >
      {copied ? <Check className="size-4 text-success" /> : <Copy className="size-4" />}
    </Button>
  );
}

/** A read-only value (command, link) in a mono box with a copy button. */
export function CopyField({
  value,
  label,
  successMessage,
}: {
  value: string;
  label?: string;
  successMessage?: string;
}) {
  return (
    <div className="flex items-start gap-2">
      <pre className="min-w-0 flex-1 overflow-x-auto rounded-md border border-border bg-surface-muted px-3 py-2 font-mono text-[12.5px] leading-5 text-foreground whitespace-pre-wrap break-all">
        {value}
      </pre>
      <CopyButton value={value} label={label} successMessage={successMessage} />
    </div>
  );
}
