// The evidence a catalog item's selected config lines become when linked to an incident.

/**
 * The evidence payload of the shown lines: the selected lines and 3 lines of context around each
 * (line number → text), so the incident shows the excerpt even after the config changes.
 */
export function configLinesEvidence(lines: readonly string[], selected: ReadonlySet<number>) {
  const picked = selected.size ? [...selected] : [1];
  const kept: Record<string, string> = {};
  const chosen: Record<string, string> = {};
  for (const n of picked) {
    if (selected.has(n) && lines[n - 1] !== undefined) chosen[n] = lines[n - 1]!;
    for (let k = Math.max(1, n - 3); k <= Math.min(lines.length, n + 3); k++) kept[k] = lines[k - 1]!;
  }
  return { lines: kept, selected_lines: chosen };
}
