"use client";

import { memo } from "react";
import { AssistantAvatar } from "@/components/message/assistant-avatar";
import { CopyButton } from "@/components/message/copy-button";
import { Markdown } from "@/components/message/markdown";
import { Sources } from "./sources";
import { ToolSteps } from "./answer-step";
import { FileSources } from "./file-sources";
import { MEMORY_USED_TEXT, MEMORY_USED_TITLE } from "./memory-used";
import { ACTION_BUTTON, MessageActions, RegenerateButton } from "./message-actions";
import { ReadAloudButton } from "./read-aloud-button";
import type { UiMessage } from "./types";
import { VersionSwitcher } from "./version-switcher";

interface AssistantMessageProps {
  message: UiMessage;
  id: string;
  versionIndex: number;
  versionCount: number;
  latest: boolean;
  busy: boolean;
  onRegenerate: (id: string) => void;
  onStep: (id: string, step: number) => void;
}

/** A finished answer and its actions (docs/product.md §2); a stopped answer says so, even when empty. */
export const AssistantMessage = memo(function AssistantMessage({ id, message, versionIndex, versionCount, latest, busy, onRegenerate, onStep }: AssistantMessageProps) {
  return (
    <div className="group flex gap-3" data-role="assistant">
      <AssistantAvatar />
      <div className="min-w-0 flex-1 pt-1">
        {message.content !== "" && <Markdown text={message.content} />}
        {message.tools && message.tools.length > 0 && <ToolSteps tools={message.tools} />}
        {message.search && <Sources search={message.search} />}
        {message.knowledge && message.knowledge.length > 0 && <FileSources sources={message.knowledge} />}
        {message.memoryUsed && (
          <p data-testid="memory-used" title={MEMORY_USED_TITLE} className="mt-1 text-xs text-ink-500">
            {MEMORY_USED_TEXT}
            <span className="sr-only">: {MEMORY_USED_TITLE}</span>
          </p>
        )}
        {message.stopped && (
          <p data-testid="stopped-note" className="mt-1 text-sm italic text-ink-600">
            {message.content === "" ? "Stopped before the answer began." : "Stopped."}
          </p>
        )}
        <MessageActions alwaysVisible={latest || message.content === ""} align="start">
          {message.content !== "" && <CopyButton text={() => message.content} label="Copy answer" className={ACTION_BUTTON} />}
          {message.content !== "" && <ReadAloudButton id={id} text={message.content} />}
          <RegenerateButton onClick={() => onRegenerate(id)} disabled={busy} />
          <VersionSwitcher index={versionIndex} count={versionCount} onStep={(step) => onStep(id, step)} what="answer" />
        </MessageActions>
      </div>
    </div>
  );
});
