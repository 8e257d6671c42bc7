"use client";

import type { ReactNode } from "react";
import type { ToolStep } from "@/lib/shared/chat/steps";
import { DEVICE_TIME_TOOL_NAME, RUN_CODE_TOOL_NAME, runCodeSource } from "@/lib/shared/llm/device-tools";
import { resultStatus } from "@/lib/browser/code/output";

/** One collapsible step of an answer (docs/issues.md #50): a native <details> of what it sent and got back. */
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

function toolTitle(step: ToolStep): string {
  if (step.name === DEVICE_TIME_TOOL_NAME) return "Checked this device's time";
  if (step.name === RUN_CODE_TOOL_NAME) {
    const status = resultStatus(step.result);
    return `Ran code on this device${status === "error" ? " (it raised an error)" : status === "timeout" ? " (stopped at the time limit)" : ""}`;
  }
  return `Ran the tool “${step.name}” on this device`;
}

function sentOf(step: ToolStep): ReactNode {
  const code = step.name === RUN_CODE_TOOL_NAME ? runCodeSource(step.arguments) : null;
  if (code !== null) {
    return (
      <pre data-testid="step-code" className="overflow-x-auto rounded-md bg-ink-50 p-2 font-mono whitespace-pre text-ink-800">
        <code className="language-python">{code}</code>
      </pre>
    );
  }
  return step.arguments.trim() === "" || step.arguments.trim() === "{}" ? "No arguments" : <pre className="whitespace-pre-wrap font-mono">{shown(step.arguments)}</pre>;
}

function shown(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** An answer's device-tool steps. */
export function ToolSteps({ tools }: { tools: readonly ToolStep[] }) {
  return (
    <div data-testid="tool-steps" className="mt-3 space-y-1">
      {tools.map((t, i) => (
        <AnswerStep
          key={i}
          title={toolTitle(t)}
          failed={!t.ok}
          sent={sentOf(t)}
          cameBack={<pre className="whitespace-pre-wrap font-mono">{t.name === RUN_CODE_TOOL_NAME ? t.result : shown(t.result)}</pre>}
        />
      ))}
    </div>
  );
}
