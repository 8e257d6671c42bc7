import { describe, expect, it } from "vitest";
import { POST as chatVisitor } from "@/app/api/ns/chat/route";
import { api, type ApiRoute, type RouteName } from "@/lib/shared/api/contract";
import { chatRequestFor } from "@/lib/server/chat/limits";
import { isAppError } from "@/lib/shared/errors";
import { readJsonBody } from "@/lib/server/http";
import type { z } from "@/lib/shared/zod";
import { fromPeer } from "../helpers/peer";

/**
 * docs/issues.md #22, "Schemas not strict": every request body of the API contract (lib/shared/api/contract.ts) refuses
 * a field it does not define, top-level or nested, with a 400 naming the field, through the same
 * readJsonBody the route wrapper uses. next-auth's form posts (api.authSignInEmail, api.authSignInGoogle)
 * are next-auth's own parsing, outside this rule.
 */
const UUID = "0b6b8e1e-3f4a-4c2d-9e8f-1a2b3c4d5e6f";
const SEALED = Buffer.concat([Buffer.from([2]), Buffer.alloc(40, 7)]).toString("base64");
/** Format 3 at the smallest bucket (256 bytes of plaintext): fields created after padding take only it. */
const PADDED = Buffer.concat([Buffer.from([3]), Buffer.alloc(256 + 28, 7)]).toString("base64");
const METHOD = { id: UUID, kind: "recovery", wrapped_key: SEALED, kdf: { salt: "AAAA" } };
const CHAT = { messages: [{ role: "user", content: "hi" }], model: "llama3-8b-8192", file: null, chat_id: null, save_chat: false };

/** A valid body for each contract route that has one (the test fails when a route is added without one). */
const VALID: Partial<Record<RouteName, Record<string, unknown>>> = {
  authIdToken: { idToken: "eyJ.x.y" },
  createAccount: {},
  deleteUser: {},
  createCheckoutSession: { plan: 1 },
  customerPortal: {},
  chatVisitor: CHAT,
  chatSignedIn: CHAT,
  chatSave: { chat_id: UUID, create: true, first_position: 0, messages: [{ role: "user", content_ciphertext: SEALED }] },
  chatHistoryBatch: { chat_ids: [UUID] },
  deleteChat: { chat_id: UUID },
  chatTitle: { chat_id: UUID, title_ciphertext: SEALED },
  vaultCreate: { methods: [METHOD] },
  vaultPatch: { history_on: true },
  vaultAddMethod: { method: METHOD },
  vaultReplaceMethod: { replaces: UUID, method: METHOD },
  vaultRemoveMethod: { id: UUID },
  vaultPasskey: { purpose: "register" },
  vaultUnlock: { method_id: UUID },
  vaultDeviceCreate: { name: "Chrome on Linux" },
  vaultDeviceRevoke: { id: UUID },
  vaultDeviceUnlock: { id: UUID },
  shareCreate: { ciphertext: SEALED },
  shareRevoke: { id: UUID },
  vaultRotationStart: { generation: 1, next_key: SEALED, methods: [METHOD] },
  vaultRotationChats: {
    generation: 1,
    chats: [{ chat_id: UUID, base_version: 0, title_ciphertext: null, tree_ciphertext: null, header_ciphertext: PADDED, messages: [{ role: "user", content_ciphertext: SEALED }] }],
  },
  vaultRotationFinish: { generation: 1, manifest: { ciphertext: PADDED, base_version: 0 } },
  projectCreate: { project_id: UUID, sealed: PADDED },
  projectUpdate: { project_id: UUID, sealed: PADDED },
  projectDelete: { project_id: UUID },
  projectMoveChat: { chat_id: UUID, project_id: null },
  memoryPut: { sealed: PADDED, version: 1, base_version: 0 },
  projectFileCreate: { project_id: UUID, file_id: UUID, sealed: PADDED },
  projectFileReseal: { file_id: UUID, sealed: PADDED },
  projectFileDelete: { file_id: UUID },
};

/** Nested objects of our own schemas, each with an unknown field added: [route, body, field path named]. */
const NESTED: [RouteName, Record<string, unknown>, string][] = [
  ["chatVisitor", { ...CHAT, messages: [{ role: "user", content: "hi", extra_field: 1 }] }, "messages.0"],
  ["chatVisitor", { ...CHAT, document: { name: "a.pdf", text: "t", extra_field: 1 } }, "document"],
  ["chatSignedIn", { ...CHAT, documents: [{ name: "a.pdf", text: "t", extra_field: 1 }] }, "documents.0"],
  ["chatSave", { ...VALID.chatSave, messages: [{ role: "user", content_ciphertext: SEALED, extra_field: 1 }] }, "messages.0"],
  ["vaultCreate", { methods: [{ ...METHOD, extra_field: 1 }] }, "methods.0"],
  ["vaultAddMethod", { method: { ...METHOD, kdf: { salt: "AAAA", extra_field: 1 } } }, "method.kdf"],
  ["vaultReplaceMethod", { replaces: UUID, method: { ...METHOD, extra_field: 1 } }, "method"],
  ["chatTitle", { chat_id: UUID, title_ciphertext: SEALED, integrity: { header_ciphertext: PADDED, base_version: 0, manifest: { ciphertext: PADDED, base_version: 0, extra_field: 1 } } }, "integrity.manifest"],
  ["vaultRotationChats", { generation: 1, chats: [{ ...(VALID.vaultRotationChats!.chats as object[])[0], extra_field: 1 }] }, "chats.0"],
];

const bodyRoutes = (Object.entries(api) as [RouteName, ApiRoute][]).filter(([, r]) => r.body && !r.form);

/** The schema and size limit the server validates a route's body with (the chat calls: per configuration). */
function serverSchema(name: RouteName, route: ApiRoute): { schema: z.ZodType; maxBytes: number } {
  if (name === "chatVisitor" || name === "chatSignedIn") return chatRequestFor();
  return { schema: route.body!, maxBytes: route.maxBytes ?? 1024 };
}

/** readJsonBody's answer for `body`: "ok", or the refusal's status and message. */
async function validate(name: RouteName, body: unknown): Promise<"ok" | { status: number; message: string }> {
  const { schema, maxBytes } = serverSchema(name, api[name]);
  const request = new Request("http://localhost/", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  try {
    await readJsonBody(request, schema, maxBytes);
    return "ok";
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { status: error.status, message: error.message };
  }
}

describe("strict request bodies", () => {
  it("has a valid sample for every contract route with a JSON body", () => {
    expect(bodyRoutes.length).toBeGreaterThan(15);
    expect(Object.keys(VALID).sort()).toEqual(bodyRoutes.map(([name]) => name).sort());
  });

  it.each(bodyRoutes.map(([name]) => name))("%s: the valid body passes; an unknown top-level field is a 400 naming it", async (name) => {
    expect(await validate(name, VALID[name])).toBe("ok");
    const refused = await validate(name, { ...VALID[name], extra_field: true });
    expect(refused).toEqual({ status: 400, message: expect.stringContaining('"extra_field"') });
  });

  it.each(NESTED)("%s: an unknown field in a nested object is a 400 naming it (%#)", async (name, body, where) => {
    const refused = await validate(name, body);
    expect(refused).toEqual({ status: 400, message: expect.stringContaining(`${where}: Unrecognized key: "extra_field"`) });
  });

  it("the visitor chat call itself answers 400 naming the field (the finding's reproduction)", async () => {
    const res = await chatVisitor(
      new Request("http://localhost/api/ns/chat", {
        method: "POST",
        headers: fromPeer("192.0.2.77", { "content-type": "application/json" }),
        body: JSON.stringify({ ...CHAT, is_admin: true }),
      }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('"is_admin"');
  });
});
