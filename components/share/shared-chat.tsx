"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { AssistantAvatar } from "@/components/message/assistant-avatar";
import { FileChip } from "@/components/message/file-chip";
import { Markdown } from "@/components/message/markdown";
import { openShareLink, type OpenedShare } from "@/lib/browser/share/client";

/** The clear texts of a link that shows nothing (revoked links say so). */
const FAILED: Record<Exclude<OpenedShare["kind"], "ok">, { title: string; body: string }> = {
  missing: { title: "Shared chat not found", body: "This shared chat was not found. It may have been revoked by the person who shared it." },
  bad_key: {
    title: "This link is incomplete",
    body: "The key at the end of the link (after #) is missing or wrong, so the chat cannot be decrypted. Ask for the full link.",
  },
  failed: { title: "Could not load the shared chat", body: "Hush could not be reached. Check your connection and reload the page." },
};

/** A shared chat, read-only, opened in this browser with the key from the page's fragment. */
export function SharedChat({ id }: { id: string }) {
  const [state, setState] = useState<OpenedShare | null>(null);

  useEffect(() => {
    let live = true;
    const key = window.location.hash.slice(1);
    void openShareLink(id, key).then((opened) => {
      if (live) setState(opened);
    });
    return () => {
      live = false;
    };
  }, [id]);

  if (!state) {
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6">
        <h1 className="sr-only">Shared chat</h1>
        <p role="status" className="text-center text-ink-600">
          Decrypting the shared chat…
        </p>
      </div>
    );
  }

  if (state.kind !== "ok") {
    const text = FAILED[state.kind];
    return (
      <div className="mx-auto flex w-full max-w-xl flex-col items-center gap-4 px-6 py-20 text-center" data-testid="share-unavailable">
        <h1 className="text-2xl font-semibold text-ink-950">{text.title}</h1>
        <p className="text-ink-700">{text.body}</p>
        <Link href="/chat" className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700">
          Start your own chat
        </Link>
      </div>
    );
  }

  const { snapshot } = state;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6" data-testid="shared-chat">
      <header className="mb-6 border-b border-ink-100 pb-4">
        <p className="text-xs font-semibold uppercase tracking-wide text-ink-600">Shared chat · read-only</p>
        <h1 className="mt-1 break-words text-2xl font-semibold text-ink-950">{snapshot.title}</h1>
        <p className="mt-1 text-sm text-ink-600">
          Shared on <time dateTime={snapshot.sharedAt}>{new Date(snapshot.sharedAt).toLocaleString()}</time>. Decrypted in your browser: Hush&apos;s server
          stores only ciphertext.
        </p>
      </header>
      <ol className="flex flex-col gap-6">
        {snapshot.messages.map((m, i) =>
          m.role === "user" ? (
            <li key={i} className="flex flex-col items-end gap-1" data-role="user">
              {m.attachmentName && <FileChip name={m.attachmentName} />}
              <div className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-br-md bg-ink-100 px-4 py-2.5 text-ink-900">{m.content}</div>
            </li>
          ) : (
            <li key={i} className="flex gap-3" data-role="assistant">
              <AssistantAvatar />
              <div className="min-w-0 flex-1">
                <Markdown text={m.content} />
              </div>
            </li>
          ),
        )}
      </ol>
      <p className="mt-10 text-center text-sm text-ink-600">
        <Link href="/chat" className="font-semibold text-brand-700 underline">
          Start your own private chat
        </Link>
      </p>
    </div>
  );
}
