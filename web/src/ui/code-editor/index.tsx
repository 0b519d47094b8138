// The code editor, loaded on first use so CodeMirror stays out of the pages' own chunks.
import { lazy, Suspense } from 'react';
import { Skeleton } from '../skeleton';
import { useTheme } from '../theme';
import type { CodeEditorProps } from './CodeEditor';

export type { CodeEditorProps } from './CodeEditor';
export {
  describeProblem,
  formatEditorDocument,
  parseEditorDocument,
  type DocumentLanguage,
  type DocumentProblem,
} from './document';

const CodeEditorImpl = lazy(() => import('./CodeEditor'));

export function CodeEditor(props: CodeEditorProps) {
  const { resolved } = useTheme();
  return (
    <div className="overflow-hidden rounded-md border border-border" data-testid="code-editor">
      <Suspense fallback={<Skeleton className="m-3" />}>
        <CodeEditorImpl dark={resolved === 'dark'} {...props} />
      </Suspense>
    </div>
  );
}
