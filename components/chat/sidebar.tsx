"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { useState } from "react";
import { buttonStyles, ConfirmDialog, Dialog } from "@/components/ui/dialog";
import type { ChatSearchHit } from "@/lib/browser/chat/search";
import type { VaultStore } from "@/lib/browser/vault/store";
import { ChatList } from "./chat-list";
import type { ChatParts } from "./parts";
import type { HistoryEntry } from "./use-chat-history";
import type { SearchState } from "./use-chat-search";

const ChatSearch = dynamic(() => import("./chat-search").then((m) => m.ChatSearch), { ssr: false });

interface SidebarProps {
  /** null: the default for the screen size. */
  open: boolean | null;
  onClose: () => void;
  signedIn: boolean;
  chats: HistoryEntry[];
  loading: boolean;
  hasMore: boolean;
  onLoadMore: () => void;
  activeChatId: string | null;
  onPick: (chatId: string) => void;
  onNew: () => void;
  onDelete: (entry: HistoryEntry) => void;
  onRename: (chatId: string, title: string) => Promise<boolean>;
  searchOpen: boolean;
  onSearchOpenChange: (open: boolean) => void;
  searchState: SearchState;
  search: (query: string, exclude: ReadonlySet<string>) => Promise<ChatSearchHit[]>;
  hiddenChats: ReadonlySet<string>;
  saveHistory: boolean;
  onSaveHistoryChange: (on: boolean) => void;
  vault: VaultStore;
  /** The vault's unlock panel and setup dialog (./parts.ts). */
  vaultParts: Pick<ChatParts, "UnlockPanel" | "VaultSetupDialog">;
  onLock: () => void;
  /** Shown above the chats: the projects. */
  projects?: React.ReactNode;
}

/** The history sidebar (docs/product.md §2, §4): a column on wide screens, a drawer on small ones. */
export function Sidebar(props: SidebarProps) {
  const { open, signedIn, chats, loading } = props;
  const { UnlockPanel, VaultSetupDialog } = props.vaultParts;
  const [confirmSave, setConfirmSave] = useState(false);
  const [deleting, setDeleting] = useState<HistoryEntry | null>(null);
  const [settingUp, setSettingUp] = useState(false);
  // Once opened, the setup dialog stays mounted: its native <dialog> closes in place.
  const [setupShown, setSetupShown] = useState(false);
  if (settingUp && !setupShown) setSetupShown(true);
  const visibility = open === null ? "hidden md:flex" : open ? "flex" : "hidden";
  const locked = signedIn && props.vault.status === "locked";
  const vaultReady = props.vault.status !== "loading" && props.vault.status !== "error";
  const canSearch = signedIn && props.vault.status === "unlocked";

  return (
    <>
      {open && <div className="fixed inset-0 z-30 bg-ink-950/30 md:hidden" onClick={props.onClose} aria-hidden="true" />}
      <aside
        aria-label="Chat history"
        className={`${visibility} fixed inset-y-0 left-0 z-40 w-[85%] max-w-80 flex-col border-r border-ink-100 bg-ink-50 md:static md:z-auto md:w-72 md:max-w-none`}
      >
        <div className="flex items-center justify-between gap-1 border-b border-ink-100 px-2 py-2">
          <IconButton label="Close sidebar" onClick={props.onClose}>
            <path d="M4 5h16v14H4zM9 5v14" />
          </IconButton>
          <div className="flex items-center gap-1">
            {signedIn && (
              <SaveHistorySwitch
                on={props.saveHistory}
                disabled={!vaultReady}
                onClick={() =>
                  props.saveHistory ? props.onSaveHistoryChange(false) : props.vault.info?.exists ? setConfirmSave(true) : setSettingUp(true)
                }
              />
            )}
            {canSearch && (
              <IconButton label="Search chats" onClick={() => props.onSearchOpenChange(!props.searchOpen)} pressed={props.searchOpen}>
                <circle cx="11" cy="11" r="7" />
                <path d="m20 20-3.5-3.5" />
              </IconButton>
            )}
            {signedIn && props.vault.status === "unlocked" && (
              <IconButton label="Lock saved chats" onClick={props.onLock}>
                <rect x="5" y="11" width="14" height="9" rx="2" />
                <path d="M8 11V8a4 4 0 0 1 8 0v3" />
              </IconButton>
            )}
            <IconButton label="New chat" onClick={props.onNew}>
              <path d="M12 5v14M5 12h14" />
            </IconButton>
          </div>
        </div>

        {loading && (
          <div role="progressbar" aria-label="Loading chats" className="h-0.5 w-full overflow-hidden bg-brand-100">
            <div className="h-full w-1/3 animate-[loading_1.2s_ease-in-out_infinite] bg-brand-600" />
          </div>
        )}

        {!signedIn ? (
          <VisitorSignUp />
        ) : locked && props.vault.info ? (
          <div className="flex-1 overflow-y-auto">
            <UnlockPanel info={props.vault.info} />
          </div>
        ) : signedIn && props.vault.status === "unlocking" ? (
          <p role="status" className="m-3 text-sm text-ink-600">
            Unlocking saved chats on this remembered device…
          </p>
        ) : canSearch && props.searchOpen ? (
          <ChatSearch
            state={props.searchState}
            search={props.search}
            hidden={props.hiddenChats}
            onOpen={(id) => {
              props.onSearchOpenChange(false);
              props.onPick(id);
            }}
            onClose={() => {
              props.onSearchOpenChange(false);
              requestAnimationFrame(() => document.querySelector<HTMLElement>('aside[aria-label="Chat history"] button[aria-label="Search chats"]')?.focus());
            }}
          />
        ) : (
          <nav aria-label="Saved chats" className="flex-1 overflow-y-auto p-2">
            {props.projects}
            {!loading && chats.length === 0 && (
              <p className="px-2 py-3 text-sm text-ink-500">
                {props.saveHistory ? "Chats you send now are saved here." : "No saved chats. Turn on Save history to keep chats."}
              </p>
            )}
            <ChatList chats={chats} activeChatId={props.activeChatId} onPick={props.onPick} onAskDelete={setDeleting} onRename={props.onRename} />
            {props.hasMore && (
              <button type="button" onClick={props.onLoadMore} disabled={loading} className="mt-2 w-full rounded-lg px-3 py-2 text-sm font-medium text-brand-700 hover:bg-ink-100">
                Load more
              </button>
            )}
          </nav>
        )}
      </aside>

      <ConfirmSaveDialog
        open={confirmSave}
        onClose={() => setConfirmSave(false)}
        onConfirm={() => {
          setConfirmSave(false);
          props.onSaveHistoryChange(true);
        }}
      />

      {setupShown && <VaultSetupDialog open={settingUp} onClose={() => setSettingUp(false)} onDone={() => undefined} />}

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this chat?"
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) props.onDelete(deleting);
        }}
      >
        “{deleting?.display_name || "Untitled Chat"}” will be deleted for good. You can undo this for a few seconds
        afterwards. A share link made from it keeps its copy until you revoke it in Settings.
      </ConfirmDialog>
    </>
  );
}

function SaveHistorySwitch({ on, disabled, onClick }: { on: boolean; disabled: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      disabled={disabled}
      onClick={onClick}
      className="inline-flex items-center gap-2 rounded-lg px-2 py-1.5 text-xs font-medium text-ink-700 hover:bg-ink-100"
    >
      <span className={`relative inline-block h-4 w-7 rounded-full transition ${on ? "bg-brand-600" : "bg-ink-300"}`}>
        <span className={`absolute top-0.5 h-3 w-3 rounded-full bg-white transition ${on ? "left-3.5" : "left-0.5"}`} />
      </span>
      Save history
    </button>
  );
}

function VisitorSignUp() {
  return (
    <div className="m-3 rounded-xl border border-ink-200 bg-white p-4 text-sm">
      <p className="font-semibold text-ink-900">Sign up to save chats</p>
      <p className="mt-1 text-ink-600">Saved chats are encrypted with a key of your own.</p>
      <div className="mt-3 flex gap-2">
        <Link href="/signup" className={buttonStyles.primary}>
          Sign Up
        </Link>
        <Link href="/signup" className={buttonStyles.secondary}>
          Log In
        </Link>
      </div>
    </div>
  );
}

/** docs/product.md §4: the confirmation to turn Save history on again (the vault exists). */
function ConfirmSaveDialog({ open, onClose, onConfirm }: { open: boolean; onClose: () => void; onConfirm: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Save chat history?"
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className={buttonStyles.primary}
            onClick={onConfirm}
          >
            Turn on
          </button>
        </>
      }
    >
      Chats you send from now on are stored, encrypted in your browser with your own key, so you can come back
      to them. You can delete any chat, or your whole account, at any time.
    </Dialog>
  );
}

function IconButton({ label, onClick, pressed, children }: { label: string; onClick: () => void; pressed?: boolean; children: React.ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      aria-pressed={pressed}
      title={label}
      className={`inline-flex h-9 w-9 items-center justify-center rounded-lg hover:bg-ink-100 hover:text-ink-900 ${pressed ? "bg-ink-100 text-ink-900" : "text-ink-600"}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        {children}
      </svg>
    </button>
  );
}
