// The YAML / JSON switch of a settings resource's Code tab (a radio group).
import { type DocumentLanguage } from '../../../ui/code-editor';

export function LanguageToggle({
  language,
  onChange,
}: {
  language: DocumentLanguage;
  onChange(next: DocumentLanguage): void;
}) {
  return (
    <div
      className="inline-flex rounded-md border border-border bg-surface-muted p-0.5 text-[12px]"
      role="radiogroup"
      aria-label="Language"
    >
      {(['yaml', 'json'] as const).map((l) => (
        <button
          key={l}
          type="button"
          role="radio"
          aria-checked={language === l}
          onClick={() => onChange(l)}
          className={`cursor-pointer rounded px-2.5 py-0.5 font-medium uppercase ${language === l ? 'bg-surface shadow-sm' : 'text-muted'}`}
        >
          {l}
        </button>
      ))}
    </div>
  );
}
