import { useRef, useState } from 'preact/hooks';
import { errorText } from '../api.ts';
import type { OptionPaths } from '../fieldeditor.ts';
import { ErrorMessage, SuccessMessage } from '../ui.tsx';
import type { EditorShared } from './editor-context.ts';
import { useEditor } from './editor-context.ts';
import { UndoRefused, undoStep, type UndoStep } from './option-undo.ts';

/** The state one option editor shares with its parts (editor-context.ts). */
export function useSharedEditor(): EditorShared {
  const successes = useRef(0);
  const [generation, setGeneration] = useState(0);
  const [undo, setUndo] = useState<UndoStep>();
  const [reloads, setReloads] = useState(0);
  return {
    successes,
    generation,
    succeeded: (keepUndo = false) => {
      successes.current += 1;
      setGeneration(successes.current);
      if (!keepUndo) setUndo(undefined);
    },
    undo,
    setUndo,
    reloads,
    reloadAll: () => setReloads((n) => n + 1),
  };
}

const done = (step: UndoStep) => (step.kind === 'sort' ? `Sorted ${step.listName}.` : `Moved one of ${step.listName}.`);

/**
 * Says what the last sort or move did and offers to undo it while the list is as that step left it; any other
 * change made in the editor takes the offer away, and a change made elsewhere makes the server refuse it.
 */
export function UndoBar({ paths }: { paths: OptionPaths }) {
  const editor = useEditor();
  const [result, setResult] = useState<{ ok: boolean; text: string; at: number }>();
  const [busy, setBusy] = useState(false);
  if (!editor) return null;
  const step = editor.undo;

  const run = async () => {
    if (!step) return;
    setBusy(true);
    try {
      await undoStep(paths, step);
      editor.succeeded();
      setResult({ ok: true, text: `Undone: ${step.listName} are back in their order before the ${step.kind}.`, at: editor.successes.current });
      editor.reloadAll();
    } catch (e) {
      editor.setUndo(undefined);
      const text =
        e instanceof UndoRefused
          ? `The ${step.kind} cannot be undone: ${step.listName} changed since (here or elsewhere). The order stays as shown.`
          : errorText(e);
      setResult({ ok: false, text, at: editor.successes.current });
      editor.reloadAll();
    } finally {
      setBusy(false);
    }
  };

  // A result is shown until the next action of the editor succeeds.
  const shown = result && result.at === editor.successes.current ? result : undefined;
  return (
    <div class="undo-bar" aria-live="polite">
      {step && (
        <SuccessMessage>
          {done(step)}{' '}
          <button type="button" class="small" data-testid="option-undo" disabled={busy} onClick={() => void run()}>
            Undo {step.kind}
          </button>
        </SuccessMessage>
      )}
      {!step && shown?.ok && <SuccessMessage>{shown.text}</SuccessMessage>}
      {!step && shown && !shown.ok && <ErrorMessage error={shown.text} />}
    </div>
  );
}
