// The YAML/JSON editor (CodeMirror 6): line numbers, syntax highlighting, and lint markers from
// the same document check the page runs before saving. Loaded lazily (see ./index.tsx).
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import CodeMirror from '@uiw/react-codemirror';
import { useMemo } from 'react';
import type { JsonSchema } from '@opsdeck/common/jsonSchema';
import { parseEditorDocument, type DocumentLanguage } from './document';

export interface CodeEditorProps {
  value: string;
  onChange?(value: string): void;
  language: DocumentLanguage;
  schema?: JsonSchema;
  readOnly?: boolean;
  /** Grows with the content between these. */
  minHeight?: string;
  maxHeight?: string;
  dark?: boolean;
  ariaLabel?: string;
}

export default function CodeEditor({
  value,
  onChange,
  language,
  schema,
  readOnly,
  minHeight = '240px',
  maxHeight = '70vh',
  dark,
  ariaLabel,
}: CodeEditorProps) {
  const extensions = useMemo(
    () => [
      language === 'json' ? json() : yaml(),
      lintGutter(),
      linter(
        (view): Diagnostic[] => {
          const text = view.state.doc.toString();
          if (!text.trim()) return [];
          return parseEditorDocument(text, language, schema).problems.map((p) => {
            const line = view.state.doc.line(Math.min(Math.max(p.line, 1), view.state.doc.lines));
            return { from: line.from, to: line.to, severity: 'error', message: p.message };
          });
        },
        { delay: 300 },
      ),
      EditorView.lineWrapping,
      // The documented way to give CodeMirror a minimum height: content and gutter both grow.
      EditorView.theme({ '.cm-content, .cm-gutter': { minHeight } }),
      EditorView.contentAttributes.of({ 'aria-label': ariaLabel ?? `${language.toUpperCase()} editor` }),
    ],
    [language, schema, ariaLabel, minHeight],
  );

  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      readOnly={readOnly}
      editable={!readOnly}
      maxHeight={maxHeight}
      theme={dark ? 'dark' : 'light'}
      basicSetup={{ lineNumbers: true, foldGutter: true, highlightActiveLine: !readOnly, autocompletion: false }}
    />
  );
}
