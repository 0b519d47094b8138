// A person's (or team's) avatar: the picture when there is one, else initials.
import { cn } from '../../../ui/cn';

export function Avatar({
  name,
  src,
  className,
}: {
  name: string | null | undefined;
  src?: string | null;
  className?: string;
}) {
  const text = (name ?? '?')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
  const cls = cn(
    'inline-flex size-6 shrink-0 items-center justify-center overflow-hidden rounded-full border border-surface',
    'bg-primary-soft text-[10px] font-semibold text-primary',
    className,
  );
  return src ? (
    <img src={src} alt={name ?? ''} title={name ?? ''} className={cls} />
  ) : (
    <span className={cls} title={name ?? ''} aria-label={name ?? undefined}>
      {text || '?'}
    </span>
  );
}
