"use client";

import { useConfidential } from "./confidential-context";

/** One line per model on who processes its messages, the same sentences as the model badge and /privacy. */
export function ModelPrivacyLines() {
  const { privacy } = useConfidential();
  if (privacy.length === 0) {
    return <>it passes through Hush&apos;s server in memory on its way to the AI model, and the model&apos;s provider processes it to answer. Hush does not store or log it.</>;
  }
  return (
    <ul className="mt-1 list-[circle] space-y-1 pl-5" data-testid="model-privacy-lines">
      {privacy.map((p) => (
        <li key={p.code}>
          <strong>{p.title}</strong>: {p.line}.{p.confidential ? "" : " Hush does not store or log it."}
        </li>
      ))}
    </ul>
  );
}
