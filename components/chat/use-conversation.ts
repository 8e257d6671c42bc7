"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import {
  addChild,
  activePath,
  emptyTree,
  fromMessages,
  leafId,
  pathTo,
  switchVersion,
  updateMessage,
  type BranchTree,
} from "@/lib/browser/chat/branches";
import { type ApiMessage, type ConversationDocument, type SearchProgress, type SendChatResult, type StagedFile } from "@/lib/browser/chat/send-turn";
import { failureDetail, sendErrorOutcome } from "@/lib/browser/chat/send-errors";
import { keptForRetry, notSavedYetText, retryKeptSave } from "@/lib/browser/chat/save-retry";
import { AppError } from "@/lib/shared/errors";
import { SAVED_IMAGE_MAX_CHARS } from "@/lib/browser/vault/saved-chat-rules";
import type { KnowledgeSource, UiMessage } from "./types";
import { passageSourceName, type FilePassage } from "@/lib/browser/knowledge/file-passage";
import { useStreamingText } from "./use-streaming-text";
import { useConfidential } from "@/components/confidential/confidential-context";
import { turnSender, verificationFailureText } from "@/components/confidential/send-turn";
import { runTurn, type TurnResult } from "@/lib/browser/chat/turn-runner";
import { RUN_CODE_TOOL_NAME, type DeviceToolName } from "@/lib/shared/llm/device-tools";
import { useWebSearch } from "./use-web-search";
import { useChatToggle } from "./use-chat-toggle";
import { parseMemorySuggestion } from "@/lib/shared/llm/memory-prompt";
import { markMemoryUsed } from "./memory-used";

/** One model call: a new user message under `parentId` (send, edit-and-resend), or a new answer to it (regenerate). */
export type ChatOp =
  | { kind: "send"; parentId: string; text: string; file: StagedFile | null }
  | { kind: "regenerate"; parentId: string };

/** Shown under a saved chat's message whose image is over SAVED_IMAGE_MAX_CHARS (docs/issues.md #23). */
const IMAGE_NOT_SAVED = "This image is too large to keep in saved history: the saved chat keeps its name only.";

/** What a failed send shows (docs/product.md §8) and, for the "any other failure" case, what can be retried. */
export interface ChatError {
  text: string;
  link: { href: string; label: string } | null;
  detail: string | null;
  retry: ChatOp | null;
}

/** The composer's "Run code" toggle (docs/issues.md #51). */
export interface RunCodeState {
  available: boolean;
  on: boolean;
  toggle: () => void;
}

interface Options {
  deviceTools: DeviceToolName[];
  /** Null with CODE_EXECUTION=off. */
  codeExecution: { timeoutMs: number } | null;
  signedIn: boolean;
  saveHistory: boolean;
  model: string;
  documents: ConversationDocument[];
  /** The project's instructions for chat `chatId` (null: a new chat); null outside a project. */
  instructionsFor?: (chatId: string | null) => string | null;
  /** The memories sent with a turn, or undefined when memory is off for it (docs/issues.md #41). */
  memoriesFor?: () => Promise<string[] | undefined>;
  /** The project files' passages most relevant to `question`; [] outside a project (docs/issues.md #41). */
  knowledgeFor?: (chatId: string | null, question: string) => Promise<FilePassage[]>;
  onResult: (result: SendChatResult, document: ConversationDocument | null) => void;
  /** A plain send failed: put its text and PDF back. */
  onRestoreInput: (text: string, file: StagedFile | null) => void;
  onRedirect: (href: string) => void;
  /**
   * Store an answered turn of a saved chat (the whole tree, docs/issues.md #9); resolves to the chat id.
   * @throws when it could not be stored.
   */
  save: (input: { chatId: string | null; tree: BranchTree<UiMessage>; userNodeId: string; document: ConversationDocument | null }) => Promise<string>;
}

/** A stopped, empty answer stub is shown but never sent. */
function toApi(messages: UiMessage[]): ApiMessage[] {
  return messages
    .filter((m) => m.content !== "")
    .map(({ role, content, file }) => (role === "user" && file?.image ? { role, content, images: [{ url: file.image.url }] } : { role, content }));
}

/** `tree` with the answer under `userId`; a suggested memory is taken out of its text (docs/issues.md #41). */
function withAnswer(tree: BranchTree<UiMessage>, userId: string, result: TurnResult, withMemory: boolean, knowledge: KnowledgeSource[] = []) {
  const answer = result.messages[result.messages.length - 1];
  const content = answer?.role === "assistant" ? answer.content : "";
  const parsed = parseMemorySuggestion(content);
  const search = result.search ? { search: result.search } : {};
  const tools = result.tools?.length ? { tools: result.tools } : {};
  const sources = knowledge.length ? { knowledge } : {};
  const added = addChild(tree, userId, { role: "assistant", content: withMemory ? parsed.text : content, ...search, ...tools, ...sources });
  const suggestion = withMemory && parsed.suggestion ? { messageId: added.id, text: parsed.suggestion } : null;
  return { tree: added.tree, suggestion };
}

/** A project's passages as the turn's `knowledge`, and the distinct sources the answer lists. */
function knowledgeOf(passages: FilePassage[]) {
  const knowledge = passages.map((p) => ({ file: p.fileName.slice(0, 255), part: p.section.slice(0, 100), text: p.text }));
  const seen = new Set<string>();
  const sources: KnowledgeSource[] = [];
  for (const p of passages) {
    const key = passageSourceName(p);
    if (seen.has(key)) continue;
    seen.add(key);
    sources.push({ file: p.fileName, section: p.section });
  }
  return { knowledge, sources };
}

function editOp(tree: BranchTree<UiMessage>, id: string, text: string): ChatOp | null {
  const original = tree.nodes[id];
  if (!original?.parent || !original.message) return null;
  return { kind: "send", parentId: original.parent, text, file: original.message.file ?? null };
}

function regenerateOp(tree: BranchTree<UiMessage>, id: string): ChatOp | null {
  const parent = tree.nodes[id]?.parent;
  return parent ? { kind: "regenerate", parentId: parent } : null;
}

function turnFailure(err: unknown, op: ChatOp, signedIn: boolean): ChatError | { redirect: string } {
  const unverified = verificationFailureText(err);
  if (unverified) return { text: unverified, link: null, detail: null, retry: op };
  const status = err instanceof AppError ? err.status : 0;
  const serverText = err instanceof Error ? err.message : "";
  const outcome = sendErrorOutcome(status, serverText, signedIn);
  if (outcome.kind === "redirect") return { redirect: outcome.href };
  // The spec's "any other failure" text carries a link to /pricing; only then is it worth retrying.
  const retryable = status === 0 || status >= 500 || status === 408;
  return { text: outcome.text, link: outcome.link, detail: retryable ? failureDetail(status, serverText) : null, retry: retryable ? op : null };
}

/** The conversation on screen as a branch tree, and send, edit, regenerate, Retry and Stop on it. */
export function useConversation(options: Options) {
  const [tree, setTree] = useState<BranchTree<UiMessage>>(emptyTree);
  const [chatId, setChatId] = useState<string | null>(null);
  const [error, setError] = useState<ChatError | null>(null);
  // While an answer streams, the conversation shown ends at this user message.
  const [pendingAfter, setPendingAfter] = useState<string | null>(null);
  const [suggestion, setSuggestion] = useState<{ messageId: string; text: string } | null>(null);
  const streaming = useStreamingText();
  const [searching, setSearching] = useState<SearchProgress | null>(null);
  const [deviceTool, setDeviceTool] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  // Set when a send is cancelled because the user moved to another chat: nothing of it is kept.
  const discarded = useRef<AbortController | null>(null);
  const busy = streaming.text !== null;
  const confidential = useConfidential().config;
  const webSearch = useWebSearch(chatId, options.model);
  const runCodeChoice = useChatToggle(chatId);
  const runCode: RunCodeState = { available: options.codeExecution !== null, on: options.codeExecution !== null && runCodeChoice.on, toggle: runCodeChoice.toggle };

  // A turn the server did not store, saved again until it goes through; a newer save supersedes it.
  const keptSave = useRef<{ cancel(): void } | null>(null);
  const dropKeptSave = () => {
    keptSave.current?.cancel();
    keptSave.current = null;
  };
  useEffect(() => dropKeptSave, []);

  const cancel = () => {
    if (!abort.current) return;
    discarded.current = abort.current;
    abort.current.abort();
  };

  const load = (messages: UiMessage[] | BranchTree<UiMessage>, id: string | null) => {
    cancel();
    dropKeptSave();
    setTree(Array.isArray(messages) ? fromMessages(messages) : messages);
    setChatId(id);
    if (id === null) {
      webSearch.reset();
      runCodeChoice.reset();
    }
    setError(null);
    setSuggestion(null);
  };

  const run = async (op: ChatOp) => {
    if (busy) return;
    const before = tree;
    const { tree: working, id: userId } =
      op.kind === "send"
        ? addChild(before, op.parentId, { role: "user", content: op.text, attachmentName: op.file?.name, file: op.file })
        : { tree: before, id: op.parentId };
    const conversation = pathTo(working, userId);
    const attached = conversation[conversation.length - 1]?.file ?? null;
    // An image travels on its message (toApi), never as a document.
    const file = attached?.image ? null : attached;
    dropKeptSave();
    setTree(working);
    setPendingAfter(userId);
    setError(null);
    setSuggestion(null);
    streaming.start();
    const memories = await options.memoriesFor?.();
    const passages = (await options.knowledgeFor?.(chatId, conversation[conversation.length - 1]?.content ?? "").catch(() => [])) ?? [];
    // A regenerated or edited turn sends its own PDF again: not also as an earlier document.
    const earlier = file ? options.documents.filter((d) => d.name !== file.name) : options.documents;
    const knowledge = knowledgeOf(passages);

    const controller = new AbortController();
    abort.current = controller;
    try {
      const result: TurnResult = await runTurn(turnSender(confidential, options.model), {
        endpoint: options.signedIn ? "chatSignedIn" : "chatVisitor",
        messages: toApi(conversation),
        model: options.model,
        file,
        documents: earlier,
        instructions: options.instructionsFor?.(chatId) ?? null,
        knowledge: knowledge.knowledge,
        chatId,
        // docs/product.md §7: the server stores nothing whatever save_chat says (saving is `options.save`).
        saveChat: options.signedIn && options.saveHistory,
        memories,
        signal: controller.signal,
        onDelta: streaming.push,
        webSearch: webSearch.state.on,
        onSearch: setSearching,
        onDeviceTool: setDeviceTool,
        tools: runCode.on ? [...options.deviceTools, RUN_CODE_TOOL_NAME] : options.deviceTools,
      }, { code: runCode.on ? options.codeExecution : null });
      webSearch.record(result.search);
      const user = working.nodes[userId]!.message as UiMessage;
      const notice =
        attached?.image && attached.image.url.length > SAVED_IMAGE_MAX_CHARS && options.signedIn && options.saveHistory ? IMAGE_NOT_SAVED : (file?.notice ?? null);
      const withNotice = op.kind === "send" ? updateMessage(working, userId, { ...user, notice }) : working;
      const { tree: next, suggestion: suggested } = markMemoryUsed(withAnswer(withNotice, userId, result, memories !== undefined, knowledge.sources), userId, memories);
      setTree(next);
      setSuggestion(suggested);
      const document = file ? { name: file.name, text: file.text } : null;
      options.onResult(result, document);
      if (options.signedIn && options.saveHistory) {
        const saveNow = async () => {
          const savedId = await options.save({ chatId, tree: next, userNodeId: userId, document });
          if (chatId === null) {
            webSearch.adopt(savedId);
            runCodeChoice.adopt(savedId);
          }
          setChatId(savedId);
        };
        const notSaved = (saveError: unknown) => {
          const why = saveError instanceof AppError ? saveError.message : "please try again.";
          setError({ text: `This answer was not saved: ${why}`, link: null, detail: null, retry: null });
        };
        try {
          await saveNow();
        } catch (saveError) {
          if (!keptForRetry(saveError)) notSaved(saveError);
          else {
            setError({ text: notSavedYetText(saveError), link: null, detail: null, retry: null });
            dropKeptSave();
            const kept = retryKeptSave(saveNow, {
              onSaved: () => {
                if (keptSave.current === kept) keptSave.current = null;
                setError(null);
              },
              onGaveUp: notSaved,
            });
            keptSave.current = kept;
          }
        }
      }
    } catch (err) {
      if (controller.signal.aborted) {
        // Stopped by the user: keep what arrived (possibly nothing) as a stopped answer with Regenerate.
        if (discarded.current !== controller) {
          setTree(addChild(working, userId, { role: "assistant", content: streaming.received(), stopped: true }).tree);
        }
        return;
      }
      setTree(before);
      if (op.kind === "send") options.onRestoreInput(op.text, op.file);
      const failure = turnFailure(err, op, options.signedIn);
      if ("redirect" in failure) options.onRedirect(failure.redirect);
      else setError(failure);
    } finally {
      // A send cancelled by New chat may settle after the next one started: leave that one alone.
      if (abort.current === controller) {
        abort.current = null;
        streaming.finish();
        setSearching(null);
        setDeviceTool(null);
        setPendingAfter(null);
      }
    }
  };

  const runIf = (op: ChatOp | null) => (op ? run(op) : undefined);

  // The tree changes per turn, not per streamed token: walk it once per tree.
  const path = useMemo(() => activePath(tree), [tree]);
  const shown = useMemo(
    () => (pendingAfter === null ? path : path.slice(0, path.findIndex((n) => n.id === pendingAfter) + 1)),
    [path, pendingAfter],
  );

  return {
    tree,
    shown,
    chatId,
    webSearch: webSearch.state,
    runCode,
    error,
    setError,
    suggestion,
    dismissSuggestion: () => setSuggestion(null),
    busy,
    streamingText: streaming.text,
    searching,
    deviceTool,
    load,
    cancel,
    stop: () => abort.current?.abort(),
    send: (text: string, file: StagedFile | null) => run({ kind: "send", parentId: leafId(tree), text, file }),
    edit: (id: string, text: string) => void runIf(editOp(tree, id, text)),
    regenerate: (id: string) => void runIf(regenerateOp(tree, id)),
    retry: (op: ChatOp) => run(op),
    switchVersion: (id: string, step: number) => setTree((t) => switchVersion(t, id, step)),
  };
}
