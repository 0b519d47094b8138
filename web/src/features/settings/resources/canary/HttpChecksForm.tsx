// The specialised part of the health check form (spec/3 §2, §4, §5): each http check of the
// canary as a form (name, description, url, method with a body for POST and PUT only, response
// codes, threshold, SSL expiry, response content, test and display scripts). Valid edits are
// written back into the canary's spec, so the spec editor and the Code tab show them; invalid ones
// are reported to the page, which then refuses to save.
import { zodResolver } from '@hookform/resolvers/zod';
import { ChevronDown, ChevronRight, Globe, Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import {
  emptyHttpCheck,
  HTTP_METHODS,
  httpCheckFormSchema,
  httpCheckFromForm,
  httpCheckToForm,
  METHODS_WITH_BODY,
  RESPONSE_CODES,
  SCRIPT_KINDS,
  type HttpCheckForm,
} from '@opsdeck/common/specs/canary';
import { Button } from '../../../../ui/button';
import { cn } from '../../../../ui/cn';
import { Field, Input, Select, Textarea } from '../../../../ui/input';

type Json = Record<string, unknown>;

export interface HttpChecksFormProps {
  /** The canary's spec without its schedule (as the form's document holds it). */
  spec: Json;
  readOnly: boolean;
  onChange(spec: Json): void;
  /** Messages for checks whose form is invalid; empty when all are valid. */
  onProblems(problems: string[]): void;
}

export function HttpChecksForm({ spec, readOnly, onChange, onProblems }: HttpChecksFormProps) {
  const checks = Array.isArray(spec.http) ? (spec.http as Json[]) : [];
  // Keys survive edits (a renamed check keeps its form); new entries get a fresh one.
  const [keys, setKeys] = useState<number[]>(() => checks.map((_, i) => i));
  const [nextKey, setNextKey] = useState(checks.length);
  const [problems, setProblems] = useState<Record<number, string | undefined>>({});
  if (keys.length !== checks.length) {
    // The spec editor added or removed entries: start over with one form per entry.
    setKeys(checks.map((_, i) => nextKey + i));
    setNextKey(nextKey + checks.length);
  }

  const report = (key: number, problem: string | undefined) => {
    if (problems[key] === problem) return;
    const next = { ...problems, [key]: problem };
    setProblems(next);
    onProblems(Object.values(next).filter((p): p is string => !!p));
  };

  const writeAt = (index: number, entry: Json | undefined) => {
    const list = [...checks];
    if (entry) list[index] = entry;
    else list.splice(index, 1);
    const next = { ...spec };
    if (list.length) next.http = list;
    else delete next.http;
    onChange(next);
  };

  return (
    <section className="space-y-3" aria-label="HTTP checks">
      <div className="flex items-center justify-between gap-2">
        <div>
          <p className="text-[13px] font-medium">HTTP checks</p>
          <p className="text-[12.5px] text-muted">Other check types are edited in the spec below or in the Code tab.</p>
        </div>
        {!readOnly && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              setKeys([...keys, nextKey]);
              setNextKey(nextKey + 1);
              const next = { ...spec, http: [...checks, httpCheckFromForm(emptyHttpCheck())] };
              onChange(next);
            }}
          >
            <Plus className="size-3.5" aria-hidden /> Add HTTP check
          </Button>
        )}
      </div>
      {checks.length === 0 && (
        <p className="rounded-md border border-dashed border-border px-4 py-6 text-center text-[13px] text-muted">
          No HTTP checks.
        </p>
      )}
      {checks.map((entry, i) => (
        <HttpCheckCard
          key={keys[i]}
          index={i}
          entry={entry}
          readOnly={readOnly}
          onValid={(values) => {
            report(keys[i], undefined);
            writeAt(i, httpCheckFromForm(values, entry));
          }}
          onInvalid={(name) => report(keys[i], `HTTP check ${name ? `"${name}"` : i + 1}: fix the highlighted fields`)}
          onRemove={() => {
            report(keys[i], undefined);
            setKeys(keys.filter((_, k) => k !== i));
            writeAt(i, undefined);
          }}
        />
      ))}
    </section>
  );
}

function firstError(errors: FieldErrors<HttpCheckForm>, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

function HttpCheckCard({
  index,
  entry,
  readOnly,
  onValid,
  onInvalid,
  onRemove,
}: {
  index: number;
  entry: Json;
  readOnly: boolean;
  onValid(values: HttpCheckForm): void;
  onInvalid(name: string): void;
  onRemove(): void;
}) {
  const [open, setOpen] = useState(true);
  const form = useForm<HttpCheckForm>({
    resolver: zodResolver(httpCheckFormSchema),
    mode: 'onChange',
    defaultValues: httpCheckToForm(entry),
  });
  const { register, formState, watch, setValue } = form;
  const errors = formState.errors;
  const method = watch('method');
  const codes = watch('responseCodes');
  const name = watch('name');
  const test = watch('test.kind');
  const display = watch('display.kind');

  useEffect(() => {
    // Subscribing (not rendering) with watch: the documented way to follow every change.
    // eslint-disable-next-line react-hooks/incompatible-library
    const sub = watch((values) => {
      const parsed = httpCheckFormSchema.safeParse(values);
      if (parsed.success) onValid(parsed.data);
      else onInvalid(String(values.name ?? ''));
    });
    return () => sub.unsubscribe();
  }, [watch, onValid, onInvalid]);

  const err = (path: string) => firstError(errors, path);
  const number = (field: 'thresholdMillis' | 'maxSSLExpiry', label: string, hint: string) => (
    <Field label={label} error={err(field)} hint={hint}>
      {(id, d) => (
        <Input
          id={id}
          aria-describedby={d}
          inputMode="numeric"
          invalid={!!err(field)}
          disabled={readOnly}
          {...register(field)}
        />
      )}
    </Field>
  );
  const script = (key: 'test' | 'display', label: string, kind: string) => (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <span className="text-[13px] font-medium">{label}</span>
        <Select
          aria-label={`${label} script`}
          className="h-8 w-36 text-[12.5px]"
          disabled={readOnly}
          {...register(`${key}.kind`)}
        >
          {SCRIPT_KINDS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
      </div>
      {kind !== 'none' && (
        <>
          <Textarea
            aria-label={`${label} ${kind}`}
            className="min-h-16 font-mono text-[12.5px]"
            disabled={readOnly}
            placeholder={key === 'test' ? 'code == 200' : '{{.code}}'}
            {...register(`${key}.text`)}
          />
          {err(`${key}.text`) && (
            <p role="alert" className="text-[12.5px] text-danger">
              {err(`${key}.text`)}
            </p>
          )}
        </>
      )}
    </div>
  );

  return (
    <div className="rounded-lg border border-border bg-surface" data-testid="http-check-form">
      <div className="flex items-center gap-2 px-4 py-2.5">
        <button
          type="button"
          className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 text-left"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {open ? <ChevronDown className="size-4 text-muted" /> : <ChevronRight className="size-4 text-muted" />}
          <Globe className="size-4 text-muted" aria-hidden />
          <span className="truncate text-[13.5px] font-medium">{name || `HTTP check ${index + 1}`}</span>
          {Object.keys(errors).length > 0 && <span className="size-2 rounded-full bg-danger" aria-label="has errors" />}
        </button>
        {!readOnly && (
          <Button variant="ghost" size="icon-sm" aria-label={`Remove ${name || 'HTTP check'}`} onClick={onRemove}>
            <Trash2 className="size-4" />
          </Button>
        )}
      </div>
      {open && (
        <div className="grid gap-4 border-t border-border p-4 md:grid-cols-2">
          <Field label="Check name" error={err('name')}>
            {(id) => <Input id={id} invalid={!!err('name')} disabled={readOnly} {...register('name')} />}
          </Field>
          <Field label="Description">
            {(id) => <Input id={id} disabled={readOnly} {...register('description')} />}
          </Field>
          <Field label="URL" error={err('url')} className="md:col-span-2">
            {(id) => (
              <Input
                id={id}
                className="font-mono text-[13px]"
                placeholder="https://example.com/health"
                invalid={!!err('url')}
                disabled={readOnly}
                {...register('url')}
              />
            )}
          </Field>
          <Field label="Method">
            {(id) => (
              <Select id={id} disabled={readOnly} {...register('method')}>
                {HTTP_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <div className="space-y-1.5">
            <span className="block text-[13px] font-medium">Response codes</span>
            <div className="flex flex-wrap gap-1.5" role="group" aria-label="Response codes">
              {RESPONSE_CODES.map((code) => {
                const on = codes.includes(code);
                return (
                  <button
                    key={code}
                    type="button"
                    aria-pressed={on}
                    disabled={readOnly}
                    onClick={() =>
                      setValue('responseCodes', on ? codes.filter((c) => c !== code) : [...codes, code], {
                        shouldValidate: true,
                        shouldDirty: true,
                      })
                    }
                    className={cn(
                      'h-7 cursor-pointer rounded-md border px-2 font-mono text-[12px] tabular-nums disabled:cursor-not-allowed',
                      on
                        ? 'border-primary bg-primary-soft text-primary'
                        : 'border-border text-muted hover:bg-surface-hover',
                    )}
                  >
                    {code}
                  </button>
                );
              })}
            </div>
            <p className="text-[12px] text-muted">None selected accepts any 2xx.</p>
          </div>
          {METHODS_WITH_BODY.includes(method) && (
            <Field label="Body" className="md:col-span-2">
              {(id) => (
                <Textarea id={id} className="font-mono text-[12.5px]" disabled={readOnly} {...register('body')} />
              )}
            </Field>
          )}
          {number('thresholdMillis', 'Threshold (ms)', 'Slower answers fail the check.')}
          {number('maxSSLExpiry', 'Max SSL expiry (days)', 'Fail when the certificate expires sooner.')}
          <Field label="Response content" hint="Text the body must contain." className="md:col-span-2">
            {(id, d) => <Input id={id} aria-describedby={d} disabled={readOnly} {...register('responseContent')} />}
          </Field>
          {script('test', 'Test', test)}
          {script('display', 'Display', display)}
        </div>
      )}
    </div>
  );
}
