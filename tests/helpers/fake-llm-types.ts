import type { FakeScenario } from "./fake-llm-answers";
import type { RecordedTranscription } from "./fake-transcription";

/** The fake LLM server's shapes (./fake-llm-server.ts): what it records of each request, its handle, a chat body. */

export interface RecordedRequest {
  path: string;
  model: string;
  /** Each message's text: its string content, or its text parts joined (content parts, docs/issues.md #23). */
  messages: { role: string; content: string; images?: string[] }[];
  stream: boolean;
  streamOptions?: unknown;
  /** The names of the tools offered (`tools[].function.name`), [] for none. */
  tools: string[];
  /** Lower-cased request headers without authorization and cookie. */
  headers: Record<string, string>;
  /** Whether an Authorization header was sent (its value is not recorded). */
  hasAuthorization: boolean;
  scenario: FakeScenario;
  /** Set when the connection closed before the response was complete (client went away, cut, hang). */
  closedEarly: boolean;
}

export interface FakeLlmServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  transcriptions: RecordedTranscription[];
  setScenario(scenario: FakeScenario | null): void;
  /** Plan the calls of the next requests that offer tools (each entry one request's; [] answers), instead of the rule. */
  scriptTools(steps: { name: string; arguments: string }[][]): void;
  close(): Promise<void>;
}

/** A chat completion body as the fake reads it: every field checked before use. */
export interface ChatBody {
  model?: unknown;
  messages?: unknown;
  stream?: unknown;
  tools?: unknown;
  stream_options?: unknown;
}
