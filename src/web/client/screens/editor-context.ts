import { createContext } from 'preact';
import { useContext, useState } from 'preact/hooks';
import type { UndoStep } from './option-undo.ts';

/**
 * What the parts of one option editor share: a count of successful actions (an error shown by any part is hidden
 * once a later action anywhere in the editor succeeds, so a refused duplicate does not linger through later
 * work), the one step that can be undone, and a count that makes every list re-read itself (after an undo).
 */
export interface EditorShared {
  /** The number of successful actions so far, read at the time an error is recorded. */
  successes: { current: number };
  /** Raised on each success (re-renders the editor, which hides older errors). */
  generation: number;
  /** An action succeeded; `keepUndo` for actions that do not touch an option list (the default value). */
  succeeded: (keepUndo?: boolean) => void;
  undo: UndoStep | undefined;
  setUndo: (step: UndoStep | undefined) => void;
  /** Raised to make every list of the editor read itself again. */
  reloads: number;
  reloadAll: () => void;
}

export const EditorContext = createContext<EditorShared | undefined>(undefined);

export const useEditor = (): EditorShared | undefined => useContext(EditorContext);

/**
 * An error of one part of the editor: shown until that part clears it or until any later action of the editor
 * succeeds (outside an editor, it behaves like a plain state).
 */
export function useEditorError(): [string | undefined, (text: string | undefined) => void] {
  const editor = useEditor();
  const [error, setError] = useState<{ text: string; at: number }>();
  const current = error && (!editor || error.at === editor.successes.current) ? error.text : undefined;
  const set = (text: string | undefined) => setError(text === undefined ? undefined : { text, at: editor?.successes.current ?? 0 });
  return [current, set];
}
