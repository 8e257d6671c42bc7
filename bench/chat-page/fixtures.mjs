/**
 * What bench/chat-page.mjs's proxy serves: a MESSAGES-message chat (its last message marked ZZLASTMESSAGEZZ), the
 * ANSWER_TOKENS-token Markdown answer it streams, and the zero-access vault (docs/issues.md #8) holding the chat,
 * sealed as the browser would with the app's own lib/browser/vault/seal.ts. The JSON bodies are in the exact
 * shapes of the real routes.
 */
import { generateVaultKey, importVaultKey } from "../../lib/browser/vault/crypto.ts";
import { recoveryMethod, sealTurn } from "../../lib/browser/vault/seal.ts";
import { ANSWER_TOKENS, MESSAGES } from "./options.mjs";

// ---------- content ----------
const LOREM = "private encrypted chat answers stay on this page while the model streams its words into the list".split(" ");
const words = (n, seed) => Array.from({ length: n }, (_, i) => LOREM[(i * 7 + seed) % LOREM.length]).join(" ");

function assistantText(i) {
  const parts = [`Answer ${i}: ${words(40, i)}.`, `- ${words(8, i + 1)}\n- ${words(8, i + 2)}\n- ${words(8, i + 3)}`];
  if (i % 5 === 0) parts.push("```js\n" + `const n${i} = ${i};\nconsole.log(n${i} * 2);\n` + "```");
  parts.push(`${words(30, i + 4)}.`);
  return parts.join("\n\n");
}

const chat = Array.from({ length: MESSAGES }, (_, i) =>
  i % 2 === 0 ? { role: "user", content: `Question ${i}: ${words(20, i)}?` } : { role: "assistant", content: assistantText(i) },
);
chat[chat.length - 1] = { role: "assistant", content: `${assistantText(MESSAGES)}\n\nZZLASTMESSAGEZZ` };

function answerTokens() {
  const tokens = [];
  for (let block = 0; tokens.length < ANSWER_TOKENS; block++) {
    const text =
      block % 4 === 3
        ? "```python\n" + `def f${block}(x):\n    return x * ${block}\n` + "```\n\n"
        : block % 4 === 1
          ? `1. ${words(10, block)}\n2. ${words(10, block + 1)}\n3. ${words(10, block + 2)}\n\n`
          : `${words(60, block)}.\n\n`;
    tokens.push(...(text.match(/\S+\s*/g) ?? []));
  }
  return tokens.slice(0, ANSWER_TOKENS);
}
/** The streamed answer, as the tokens (words with their trailing white space) the proxy sends. */
export const TOKENS = answerTokens();

// ---------- the vault the proxy serves (docs/issues.md #8), sealed as the browser would ----------
const USER_ID = "00000000-0000-4000-8000-00000000b0b0";
export const CHAT_ID = crypto.randomUUID();
export const TITLE = "Bench chat with a thousand messages";
const vaultRaw = generateVaultKey();
const vaultKey = await importVaultKey(vaultRaw);
const recovery = await recoveryMethod(vaultRaw, USER_ID);
/** The recovery code that unlocks the vault in the page's sidebar. */
export const RECOVERY_CODE = recovery.code;
const NOW = new Date().toISOString();
/** GET /api/vault's body (lib/server/vault/server.ts vaultStateJson). */
export const VAULT_JSON = {
  user_id: USER_ID,
  exists: true,
  history_on: true,
  last_unlock_at: NOW,
  manifest: null,
  key_generation: 0,
  rotation: null,
  methods: [{ ...recovery.method, credential_id: null, created_at: NOW, last_used_at: NOW }],
};
const sealed = await sealTurn({ key: vaultKey, userId: USER_ID, chatId: CHAT_ID, create: true, firstPosition: 0, messages: chat, title: TITLE });
/** GET /api/ns/chat_history's body (lib/server/chat/history.ts historyPage). */
export const HISTORY_JSON = {
  chat_history: [{ chat_id: CHAT_ID, display_name: null, display_name_ciphertext: sealed.title_ciphertext, last_updated: NOW, version: 0 }],
  next_cursor: null,
};
/** GET /api/ns/chat_history/{id}'s body (lib/server/chat/history.ts historyChat). */
export const CHAT_JSON = JSON.stringify({
  chat_id: CHAT_ID,
  display_name: null,
  display_name_ciphertext: sealed.title_ciphertext,
  tree_ciphertext: null,
  created_at: NOW,
  last_updated: NOW,
  messages: sealed.messages.map((m, position) => ({ role: m.role, content: "", position, content_ciphertext: m.content_ciphertext, attachment_ciphertext: m.attachment_ciphertext })),
});
