import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** What a destructive action asks first: what it removes, in words, and the label of its confirm button. */
export interface ConfirmRequest {
  title: string;
  /** What goes, named: "The user bob, its 2 tokens and its membership in 3 groups." */
  message: string;
  confirmLabel: string;
}

interface Pending extends ConfirmRequest {
  resolve: (ok: boolean) => void;
}

let show: ((p: Pending) => void) | undefined;

/**
 * Asks before a destructive action, in the page's own modal dialog (not the browser's `confirm()`): it says what
 * will be removed, its confirm button is `data-testid="confirm"`, Cancel has the focus, Escape cancels.
 * Answers false when no dialog host is mounted.
 */
export function askConfirm(request: ConfirmRequest): Promise<boolean> {
  return new Promise((resolve) => (show ? show({ ...request, resolve }) : resolve(false)));
}

/** The one dialog of the application (mounted once by app.tsx). */
export function ConfirmHost() {
  const [pending, setPending] = useState<Pending>();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    show = (p) => setPending(p);
    return () => {
      show = undefined;
    };
  }, []);
  // A layout effect: the dialog is open, with Cancel focused, in the render that shows it (keys typed at once go there).
  useLayoutEffect(() => {
    if (!pending || !dialog.current) return;
    if (!dialog.current.open) dialog.current.showModal();
    cancel.current?.focus();
  }, [pending]);

  const answer = (ok: boolean) => {
    dialog.current?.close();
    pending?.resolve(ok);
    setPending(undefined);
  };

  return (
    <dialog
      ref={dialog}
      class="confirm-dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
      onCancel={(e) => (e.preventDefault(), answer(false))}
    >
      {pending && (
        <form method="dialog" onSubmit={(e) => (e.preventDefault(), answer(true))}>
          <h2 id="confirm-title">{pending.title}</h2>
          <p id="confirm-message">{pending.message}</p>
          <div class="buttons">
            <button type="button" ref={cancel} data-testid="confirm-cancel" onClick={() => answer(false)}>
              Cancel
            </button>
            <button type="submit" class="primary danger-fill" data-testid="confirm">
              {pending.confirmLabel}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
