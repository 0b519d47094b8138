// The check drawer's Spec tab: the check's spec as read-only YAML. Loaded when the tab is first
// shown, so the YAML writer (~30 kB gzipped) is not on the way to opening the drawer.
import { useMemo } from 'react';
import { CodeEditor, formatEditorDocument } from '../../../ui/code-editor';

export default function CheckSpec({ spec }: { spec: unknown }) {
  const yaml = useMemo(() => formatEditorDocument(spec ?? {}, 'yaml'), [spec]);
  return <CodeEditor language="yaml" value={yaml} readOnly minHeight="200px" ariaLabel="Check spec" />;
}
