import type { apiFetch, CallInput } from "@/lib/browser/api/client";
import { api, type RouteName } from "@/lib/shared/api/contract";
import { AppError } from "@/lib/shared/errors";
import { GET as chatHistory } from "@/app/api/ns/chat_history/route";
import { GET as chatHistoryOne } from "@/app/api/ns/chat_history/[chatId]/route";
import { POST as chatHistoryBatch } from "@/app/api/ns/chat_history/batch/route";
import { GET as vaultGet } from "@/app/api/vault/route";
import { GET as rotationGet, POST as rotationStart } from "@/app/api/vault/rotation/route";
import { POST as rotationChats } from "@/app/api/vault/rotation/chats/route";
import { POST as rotationFinish } from "@/app/api/vault/rotation/finish/route";
import { GET as projectList, PATCH as projectUpdate } from "@/app/api/projects/route";
import { GET as memoryGet, POST as memoryPut } from "@/app/api/memory/route";
import { DELETE as fileDelete, GET as fileList, PATCH as fileReseal, POST as fileCreate } from "@/app/api/projects/files/route";
import { GET as fileGet } from "@/app/api/projects/files/[fileId]/route";
import { getConfig } from "@/lib/server/config";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

const handlers: Partial<Record<RouteName, Handler>> = {
  chatHistoryList: chatHistory as Handler,
  chatHistoryGet: chatHistoryOne as Handler,
  chatHistoryBatch: chatHistoryBatch as Handler,
  vaultGet: vaultGet as Handler,
  vaultRotation: rotationGet as Handler,
  vaultRotationStart: rotationStart as Handler,
  vaultRotationChats: rotationChats as Handler,
  vaultRotationFinish: rotationFinish as Handler,
  projectList: projectList as Handler,
  projectUpdate: projectUpdate as Handler,
  memoryGet: memoryGet as Handler,
  memoryPut: memoryPut as Handler,
  projectFileList: fileList as Handler,
  projectFileCreate: fileCreate as Handler,
  projectFileReseal: fileReseal as Handler,
  projectFileDelete: fileDelete as Handler,
  projectFileGet: fileGet as Handler,
};

/**
 * The typed client (lib/browser/api/client.ts apiFetch) for code that takes it as a parameter, answered by the real
 * route handlers for the session `cookie` (or a test Person) instead of over HTTP: the same contract, the
 * same response validation, and refusals turned into AppError exactly as apiFetch does (status and
 * message only). No test-runner imports, so benchmarks use it too.
 */
export function apiOverRoutes(who: { cookie: string }): typeof apiFetch {
  const origin = new URL(getConfig().APP_URL).origin;
  return (async (name: RouteName, input: CallInput<RouteName> = {}) => {
    const handler = handlers[name];
    if (!handler) throw new Error(`No handler wired for ${name}`);
    const route = api[name];
    let path: string = route.path;
    for (const [key, value] of Object.entries(input.params ?? {})) path = path.replace(`{${key}}`, encodeURIComponent(value));
    const query = Object.entries(input.query ?? {}).filter(([, v]) => v !== null && v !== undefined);
    if (query.length) path += `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)]))}`;
    const headers: Record<string, string> = { Origin: origin, Cookie: who.cookie };
    if (input.body !== undefined) headers["Content-Type"] = "application/json";
    const request = new Request(`${origin}${path}`, { method: route.method, headers, body: input.body === undefined ? undefined : JSON.stringify(input.body) });
    const response = await handler(request, {
      params: Promise.resolve(input.params ?? {}),
    });
    const data: { error?: string } | undefined = await response.json().catch(() => undefined);
    if (!response.ok) throw AppError.fromStatus(response.status, data?.error ?? `Request failed (${response.status}).`);
    return route.response.parse(data);
  }) as typeof apiFetch;
}
