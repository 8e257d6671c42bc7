"use client";

import { memo, useState } from "react";
import { CopyButton } from "@/components/message/copy-button";
import { FileChip } from "@/components/message/file-chip";
import { ACTION_BUTTON, MessageActions } from "./message-actions";
import { MessageEditor } from "./message-editor";
import type { UiMessage } from "./types";
import { VersionSwitcher } from "./version-switcher";

interface UserMessageProps {
  message: UiMessage;
  id: string;
  versionIndex: number;
  versionCount: number;
  latest: boolean;
  busy: boolean;
  onEdit: (id: string, text: string) => void;
  onStep: (id: string, step: number) => void;
}

/** A user message (docs/product.md §2, right-aligned) with copy, edit-and-resend and its versions. */
export const UserMessage = memo(function UserMessage({ id, message, versionIndex, versionCount, latest, busy, onEdit, onStep }: UserMessageProps) {
  const [editing, setEditing] = useState(false);
  return (
    <div className="group flex flex-col items-end gap-1" data-role="user">
      {message.attachmentName && <FileChip name={message.attachmentName} thumbnail={message.file?.image?.url} />}
      {editing ? (
        <MessageEditor
          initial={message.content}
          onCancel={() => setEditing(false)}
          onSave={(text) => {
            setEditing(false);
            onEdit(id, text);
          }}
        />
      ) : (
        <div className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-br-md bg-ink-100 px-4 py-2.5 text-ink-900">
          {message.content}
        </div>
      )}
      {message.notice && <p className="max-w-[85%] text-right text-xs text-amber-700">{message.notice}</p>}
      {!editing && (
        <MessageActions alwaysVisible={latest} align="end">
          <VersionSwitcher index={versionIndex} count={versionCount} onStep={(step) => onStep(id, step)} what="version of this message" />
          <CopyButton text={() => message.content} label="Copy message" className={ACTION_BUTTON} />
          <button type="button" onClick={() => setEditing(true)} disabled={busy} aria-label="Edit message" title="Edit message" className={`${ACTION_BUTTON} disabled:opacity-30`}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
              <path d="M4 20h4L19 9l-4-4L4 16zM14 6l4 4" />
            </svg>
          </button>
        </MessageActions>
      )}
    </div>
  );
});
