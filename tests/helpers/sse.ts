import { chatStreamEventSchemas, type ChatStreamEventName } from "@/lib/shared/chat/stream-events";

/**
 * The events of a chat call's SSE answer, `{ event, data }` with data parsed; each is checked against the contract
 * (lib/shared/chat/stream-events.ts): an event name it does not list, or data its schema refuses, throws.
 */
// Checked against its schema above; the tests read each event's own fields without narrowing the union first.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function readSse(response: Response): Promise<{ event: ChatStreamEventName; data: any }[]> {
  return (await response.text())
    .trim()
    .split("\n\n")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
      const data: unknown = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null");
      if (!Object.hasOwn(chatStreamEventSchemas, event)) throw new Error(`SSE event "${event}" is not in the contract`);
      const parsed = chatStreamEventSchemas[event as ChatStreamEventName].safeParse(data);
      if (!parsed.success) throw new Error(`SSE event "${event}" does not match the contract: ${parsed.error.message}`);
      return { event: event as ChatStreamEventName, data };
    });
}
