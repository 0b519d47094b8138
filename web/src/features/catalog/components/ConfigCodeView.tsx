// The Config tab's code view (spec/2 §2.2): the item's config as JSON (the default) or converted
// to YAML, with line numbers; clicking a line number selects it, and the selection is kept in the
// repeated query parameter 'selected' so a link shows the same lines.
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { stringify } from 'yaml';
import { CopyButton } from '../../../ui/copy-button';
import { LinkToIncidentButton } from '../../../ui/link-to-incident';
import { cn } from '../../../ui/cn';
import { readSelectedLines, toggleSelectedLine } from '../catalogParams';
import { configLinesEvidence } from '../evidence';

export type CodeFormat = 'json' | 'yaml';

/** The config body as text in the chosen format; text bodies (XML, properties…) are shown as they are. */
export function configText(config: unknown, format: CodeFormat): string {
  if (config === null || config === undefined) return '';
  if (typeof config === 'string') return config;
  return format === 'yaml' ? stringify(config, { lineWidth: 0 }).trimEnd() : JSON.stringify(config, null, 2);
}

export function ConfigCodeView({ config, item }: { config: unknown; item: { id: string; name: string | null } }) {
  const [format, setFormat] = useState<CodeFormat>('json');
  const [params, setParams] = useSearchParams();
  const selected = useMemo(() => new Set(readSelectedLines(params)), [params]);
  const text = useMemo(() => configText(config, format), [config, format]);
  const lines = text.split('\n');

  return (
    <div className="overflow-hidden rounded-lg border border-border bg-surface" data-testid="config-code">
      <div className="flex items-center gap-2 border-b border-border px-3 py-2">
        <div role="radiogroup" aria-label="Format" className="inline-flex rounded-md border border-border p-0.5">
          {(['json', 'yaml'] as const).map((f) => (
            <button
              key={f}
              type="button"
              role="radio"
              aria-checked={format === f}
              onClick={() => setFormat(f)}
              className={cn(
                'cursor-pointer rounded px-2.5 py-0.5 text-[12px] font-medium uppercase',
                format === f ? 'bg-primary-soft text-primary' : 'text-muted hover:text-foreground',
              )}
            >
              {f}
            </button>
          ))}
        </div>
        <span className="text-[12px] text-muted">
          {selected.size ? `${selected.size} line${selected.size === 1 ? '' : 's'} selected` : ''}
        </span>
        <div className="ml-auto flex items-center gap-2">
          <LinkToIncidentButton
            evidence={{
              type: 'config',
              config_id: item.id,
              description: item.name ?? item.id,
              evidence: configLinesEvidence(lines, selected),
            }}
          />
          <CopyButton value={text} />
        </div>
      </div>
      <div className="max-h-[70vh] overflow-auto">
        <table className="w-full border-collapse font-mono text-[12.5px] leading-5">
          <tbody>
            {lines.map((line, i) => {
              const n = i + 1;
              const isSelected = selected.has(n);
              return (
                <tr
                  key={n}
                  data-testid="code-line"
                  data-selected={isSelected || undefined}
                  className={cn(isSelected && 'bg-warning-soft')}
                >
                  <td className="w-12 select-none border-r border-border px-2 text-right align-top text-subtle">
                    <button
                      type="button"
                      aria-label={`Select line ${n}`}
                      aria-pressed={isSelected}
                      onClick={() => setParams((prev) => toggleSelectedLine(prev, n), { replace: true })}
                      className="w-full cursor-pointer text-right hover:text-foreground"
                    >
                      {n}
                    </button>
                  </td>
                  <td className="whitespace-pre-wrap break-all px-3 align-top">{line || ' '}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
