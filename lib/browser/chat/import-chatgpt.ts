import { z } from "@/lib/shared/zod";
import { AppError } from "@/lib/shared/errors";

// Import of a ChatGPT data export (conversations.json), parsed in the browser: the file never reaches the server in
// clear. Kept: user and assistant text on the path from the root to `current_node`, one role's run joined.

export const IMPORT_MAX_BYTES = 200 * 1024 * 1024;
export const IMPORT_MAX_CHATS = 10_000;
const IMPORT_MAX_MESSAGES = 10_000;
/** Longest message kept, in characters (4 bytes each still fit chat_save's field); longer ones are cut and marked. */
export const IMPORT_MAX_MESSAGE_CHARS = 300_000;

/** A wrong or unreadable file: AppError "bad_request:import_file", shown as is. */
export const importFormatError = (message: string) => new AppError("bad_request:import_file", message);

const seconds = z.number().finite().nullable().optional().catch(null);

const messageSchema = z.looseObject({
  author: z.looseObject({ role: z.string() }),
  create_time: seconds,
  content: z
    .looseObject({
      content_type: z.string().optional().catch(undefined),
      parts: z.array(z.unknown()).optional().catch(undefined),
      text: z.string().optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  recipient: z.string().nullable().optional().catch(null),
  metadata: z
    .looseObject({
      is_visually_hidden_from_conversation: z.boolean().optional().catch(undefined),
      attachments: z.array(z.looseObject({ name: z.string().optional().catch(undefined) })).optional().catch(undefined),
    })
    .nullable()
    .optional()
    .catch(null),
});

const nodeSchema = z.looseObject({
  parent: z.string().nullable().optional().catch(null),
  children: z.array(z.string()).optional().catch([]),
  message: messageSchema.nullable().optional().catch(null),
});

const conversationSchema = z.looseObject({
  title: z.string().nullable().optional().catch(null),
  create_time: seconds,
  update_time: seconds,
  current_node: z.string().nullable().optional().catch(null),
  mapping: z.record(z.string(), nodeSchema),
});

const fileSchema = z.array(z.unknown()).max(IMPORT_MAX_CHATS, `This file has more than ${IMPORT_MAX_CHATS.toLocaleString("en-US")} conversations. Split it and import the parts.`);

export interface ImportedChat {
  title: string | null;
  createdAt: Date;
  updatedAt: Date;
  messages: { role: "user" | "assistant"; content: string }[];
  attachmentNames: string[];
}

export interface ImportResult {
  chats: ImportedChat[];
  skipped: number;
}

const WRONG_FILE = "This is not a ChatGPT export. Choose the conversations.json file from the ZIP that ChatGPT e-mailed you.";
const OLDEST = Date.UTC(2000, 0, 1);

function date(value: number | null | undefined, fallback: Date, now: Date): Date {
  if (typeof value !== "number") return fallback;
  const ms = value * 1000;
  if (ms < OLDEST || ms > now.getTime()) return fallback;
  return new Date(Math.floor(ms));
}

type Message = z.infer<typeof messageSchema>;

function textOf(m: Message): string {
  const content = m.content;
  if (!content) return "";
  const parts = content.parts ?? (content.text !== undefined ? [content.text] : []);
  // Text and multimodal text only: tool traffic, browsing and reasoning displays are not the conversation.
  if (content.content_type && content.content_type !== "text" && content.content_type !== "multimodal_text") return "";
  return parts
    .filter((p): p is string => typeof p === "string")
    .join("\n")
    .trim();
}

function pathTo(mapping: Record<string, z.infer<typeof nodeSchema>>, leaf: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let id: string | null | undefined = leaf; id && mapping[id] && !seen.has(id); id = mapping[id]!.parent) {
    seen.add(id);
    out.push(id);
  }
  return out.reverse();
}

// When `current_node` is missing: the root's last-child chain (the newest version at each step).
function newestLeaf(mapping: Record<string, z.infer<typeof nodeSchema>>): string | null {
  const root = Object.entries(mapping).find(([, n]) => !n.parent || !mapping[n.parent])?.[0];
  if (!root) return null;
  const seen = new Set<string>();
  let id = root;
  while (!seen.has(id)) {
    seen.add(id);
    const next = mapping[id]?.children?.filter((c) => mapping[c]).at(-1);
    if (!next) break;
    id = next;
  }
  return id;
}

export function parseConversation(raw: unknown, now: Date): ImportedChat | null {
  const parsed = conversationSchema.safeParse(raw);
  if (!parsed.success) return null;
  const c = parsed.data;
  const leaf = c.current_node && c.mapping[c.current_node] ? c.current_node : newestLeaf(c.mapping);
  if (!leaf) return null;
  const messages: ImportedChat["messages"] = [];
  const attachmentNames: string[] = [];
  let firstTime: number | null = null;
  let lastTime: number | null = null;
  for (const id of pathTo(c.mapping, leaf)) {
    const m = c.mapping[id]?.message;
    if (!m) continue;
    const role = m.author.role;
    if (role !== "user" && role !== "assistant") continue;
    if (m.metadata?.is_visually_hidden_from_conversation) continue;
    if (m.recipient && m.recipient !== "all") continue;
    let text = textOf(m);
    if (!text) continue;
    if (text.length > IMPORT_MAX_MESSAGE_CHARS) text = `${text.slice(0, IMPORT_MAX_MESSAGE_CHARS)}\n\n[Cut at import: the message was longer.]`;
    for (const a of m.metadata?.attachments ?? []) if (a.name) attachmentNames.push(a.name);
    if (typeof m.create_time === "number") {
      firstTime ??= m.create_time;
      lastTime = m.create_time;
    }
    const last = messages.at(-1);
    if (last && last.role === role) last.content = `${last.content}\n\n${text}`;
    else messages.push({ role, content: text });
  }
  if (!messages.some((m) => m.role === "user" || m.role === "assistant")) return null;
  const updatedAt = date(c.update_time ?? lastTime, now, now);
  let createdAt = date(c.create_time ?? firstTime, updatedAt, now);
  if (createdAt > updatedAt) createdAt = updatedAt;
  const title = c.title?.replace(/\s+/g, " ").trim().slice(0, 200) || null;
  return { title, createdAt, updatedAt, messages: messages.slice(0, IMPORT_MAX_MESSAGES), attachmentNames };
}

/** Parse conversations.json, newest first. @throws AppError "bad_request:import_file" when it is no ChatGPT export */
export function parseChatGptExport(text: string, now: Date = new Date()): ImportResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw importFormatError(WRONG_FILE);
  }
  const file = fileSchema.safeParse(json);
  if (!file.success) {
    const tooMany = Array.isArray(json) && json.length > IMPORT_MAX_CHATS;
    throw importFormatError(tooMany ? file.error.issues[0]!.message : WRONG_FILE);
  }
  const chats: ImportedChat[] = [];
  let skipped = 0;
  let conversations = 0;
  for (const raw of file.data) {
    if (conversationSchema.safeParse(raw).success) conversations++;
    const chat = parseConversation(raw, now);
    if (chat) chats.push(chat);
    else skipped++;
  }
  if (conversations === 0 && file.data.length > 0) throw importFormatError(WRONG_FILE);
  chats.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  return { chats, skipped };
}

/** @throws AppError "bad_request:import_file" */
export function checkImportFile(file: { name: string; size: number }): void {
  if (file.size > IMPORT_MAX_BYTES) {
    throw importFormatError(`This file is too large (limit ${Math.round(IMPORT_MAX_BYTES / (1024 * 1024))} MB).`);
  }
  if (file.size === 0) throw importFormatError(WRONG_FILE);
}
