"use client";

import type { ReactNode } from "react";
import type { ToolStep } from "@/lib/shared/chat/steps";
import { DEVICE_TIME_TOOL_NAME } from "@/lib/shared/llm/device-tools";

/**
 * One step of an answer (docs/issues.md #50: "kept in the answer as a collapsible step"): closed, titled with what
 * happened; opened (a native <details>, so keyboard and screen readers work as for any disclosure) it shows what the
 * step sent and what came back. A failed step says so in its title.
 */
export function AnswerStep({ title, failed, sent, cameBack }: { title: ReactNode; failed: boolean; sent: ReactNode; cameBack: ReactNode }) {
  return (
    <details data-testid="answer-step" data-failed={failed ? "true" : undefined} className="group text-xs text-ink-500">
      <summary className="w-fit cursor-pointer rounded-sm marker:text-ink-400 hover:text-ink-700 focus-visible:outline-2 focus-visible:outline-brand-600">
        {title}
        {failed && <span className="ml-1 font-medium text-ink-700">(failed)</span>}
      </summary>
      <dl className="mt-1 ml-4 space-y-2 border-l border-ink-200 pl-3">
        <div data-testid="step-sent">
          <dt className="font-medium text-ink-700">Sent</dt>
          <dd className="mt-0.5 break-words">{sent}</dd>
        </div>
        <div data-testid="step-came-back">
          <dt className="font-medium text-ink-700">Came back</dt>
          <dd className="mt-0.5 break-words">{cameBack}</dd>
        </div>
      </dl>
    </details>
  );
}

/** What a device tool's step is titled, per tool ("Checked this device's time"). */
function toolTitle(name: string): string {
  return name === DEVICE_TIME_TOOL_NAME ? "Checked this device's time" : `Ran the tool “${name}” on this device`;
}

/** The arguments or result as sent: JSON pretty-printed when it is JSON, else the text as it is. */
function shown(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** An answer's device-tool steps, each an AnswerStep with the arguments sent and the result returned. */
export function ToolSteps({ tools }: { tools: readonly ToolStep[] }) {
  return (
    <div data-testid="tool-steps" className="mt-3 space-y-1">
      {tools.map((t, i) => (
        <AnswerStep
          key={i}
          title={toolTitle(t.name)}
          failed={!t.ok}
          sent={t.arguments.trim() === "" || t.arguments.trim() === "{}" ? "No arguments" : <pre className="whitespace-pre-wrap font-mono">{shown(t.arguments)}</pre>}
          cameBack={<pre className="whitespace-pre-wrap font-mono">{shown(t.result)}</pre>}
        />
      ))}
    </div>
  );
}
