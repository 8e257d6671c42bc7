"use client";

import { useEffect, useRef, type ReactNode } from "react";

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** Buttons row; the first focusable element gets focus when the dialog opens. */
  actions: ReactNode;
}

/** A modal on the platform's own <dialog>: focus trap, Escape and the inert page come from the browser. */
export function Dialog({ open, onClose, title, children, actions }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
      aria-labelledby="dialog-title"
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl border border-ink-200 bg-white p-0 text-ink-900 shadow-xl backdrop:bg-ink-950/40"
    >
      {open && (
        <div className="p-6">
          <h2 id="dialog-title" className="text-lg font-semibold text-ink-950">
            {title}
          </h2>
          <div className="mt-2 text-sm text-ink-700">{children}</div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{actions}</div>
        </div>
      )}
    </dialog>
  );
}

/** "Are you sure?" with Cancel first, so Enter cancels; `onConfirm` runs after the dialog closes. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={props.open}
      onClose={props.onCancel}
      title={props.title}
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={props.onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className={buttonStyles.danger}
            onClick={() => {
              props.onCancel();
              props.onConfirm();
            }}
          >
            {props.confirmLabel}
          </button>
        </>
      }
    >
      {props.children}
    </Dialog>
  );
}

/** Button styles shared by dialogs and pages. */
export const buttonStyles = {
  primary:
    "inline-flex items-center justify-center rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50",
  secondary:
    "inline-flex items-center justify-center rounded-lg border border-ink-200 bg-white px-4 py-2 text-sm font-semibold text-ink-800 hover:bg-ink-50 disabled:cursor-not-allowed disabled:opacity-50",
  danger:
    "inline-flex items-center justify-center rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-50",
} as const;
