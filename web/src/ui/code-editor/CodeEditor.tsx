// The YAML/JSON editor (CodeMirror 6): line numbers, syntax highlighting, and lint markers from
// the same document check the page runs before saving. Loaded lazily (see ./index.tsx).
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import CodeMirror from '@uiw/react-codemirror';
import { useMemo } from 'react';
import type { JsonSchema } from '@opsdeck/common/jsonSchema';
import { parseEditorDocument, type DocumentLanguage, type DocumentProblem } from './document';

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
  /** Problems found elsewhere (the server's answer to a save), marked like the editor's own. */
  extraProblems?: readonly DocumentProblem[];
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
  extraProblems,
}: CodeEditorProps) {
  const extensions = useMemo(
    () => [
      language === 'json' ? json() : yaml(),
      lintGutter(),
      linter(
        (view): Diagnostic[] => {
          const text = view.state.doc.toString();
          if (!text.trim()) return [];
          const problems = [...parseEditorDocument(text, language, schema).problems, ...(extraProblems ?? [])];
          return problems.map((p) => {
            const line = view.state.doc.line(Math.min(Math.max(p.line, 1), view.state.doc.lines));
            const from = p.column ? Math.min(line.from + p.column - 1, line.to) : line.from;
            return { from, to: line.to > from ? line.to : from, severity: 'error', message: p.message };
          });
        },
        { delay: 300 },
      ),
      EditorView.lineWrapping,
      // The documented way to give CodeMirror a minimum height: content and gutter both grow.
      EditorView.theme({ '.cm-content, .cm-gutter': { minHeight } }),
      EditorView.contentAttributes.of({ 'aria-label': ariaLabel ?? `${language.toUpperCase()} editor` }),
    ],
    [language, schema, ariaLabel, minHeight, extraProblems],
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
