// Labels as the settings form's text area shows them: one key=value per line, and back.

export function labelsToText(labels: unknown): string {
  if (!labels || typeof labels !== 'object') return '';
  return Object.entries(labels as Record<string, string>)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

export function textToLabels(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const line of text.split(/\n|,/)) {
    const t = line.trim();
    if (!t) continue;
    const at = t.indexOf('=');
    if (at > 0) out[t.slice(0, at).trim()] = t.slice(at + 1).trim();
  }
  return Object.keys(out).length ? out : undefined;
}
