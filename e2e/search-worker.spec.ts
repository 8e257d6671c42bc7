import { expect, test, type Page } from "@playwright/test";
import { signInByEmail } from "./helpers/auth";
import { generateVaultKey, importVaultKey } from "../lib/browser/vault/crypto";
import { passphraseMethod, recoveryMethod, sealTurn } from "../lib/browser/vault/seal";

/**
 * "Search chats" built in its Web Worker (docs/issues.md #24) end to end, against the production build: the
 * worker starts once the unlocked page is idle (named "hush-search"; it reads nothing until search opens),
 * reads and indexes the saved chats in several batches, and answers queries with highlights; a chat continued while search is open is found by its new
 * words, and a deleted chat is no longer found.
 */
const PASSPHRASE = "lanterns over the quiet harbour";
const N = 60;

async function seed(page: Page): Promise<string[]> {
  await signInByEmail(page, `search-worker-${Date.now()}@example.com`);
  const headers = { Origin: new URL(page.url()).origin, "Content-Type": "application/json" };
  const userId = ((await (await page.request.get("/api/vault")).json()) as { user_id: string }).user_id;
  const raw = generateVaultKey();
  const methods = [await passphraseMethod(raw, userId, PASSPHRASE), (await recoveryMethod(raw, userId)).method];
  expect((await page.request.post("/api/vault", { headers, data: { methods } })).status()).toBe(201);
  expect((await page.request.patch("/api/vault", { headers, data: { history_on: true } })).status()).toBe(200);
  const key = await importVaultKey(raw);
  const ids: string[] = [];
  // Oldest first: the list shows "Chat 0" at the top.
  for (let i = N - 1; i >= 0; i--) {
    const chatId = crypto.randomUUID();
    const messages = [
      { role: "user" as const, content: `Question ${i} about the garden` },
      { role: "assistant" as const, content: `Answer ${i}: water the garden in the morning.${i === 7 ? " The quokka likes it." : ""}` },
    ];
    const body = await sealTurn({ key, userId, chatId, create: true, firstPosition: 0, messages, title: `Chat ${i}` });
    expect((await page.request.post("/api/ns/chat_save", { headers, data: body })).status()).toBe(200);
    ids.unshift(chatId);
  }
  return ids;
}

test("search over saved chats runs in its worker and follows sends and deletions", async ({ page }) => {
  test.slow(); // sign-in, Argon2id and 60 sealed chats on a loaded machine
  await page.setViewportSize({ width: 1280, height: 800 });
  await seed(page);
  await page.goto("/chat");
  const sidebar = page.getByRole("complementary", { name: "Chat history" });
  const batches: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/ns/chat_history/batch")) batches.push(r.url());
  });
  // The worker starts once the unlocked page is idle, ahead of the first search, and reads nothing yet.
  const started = page.waitForEvent("worker", { timeout: 30_000 });
  await sidebar.getByLabel("Passphrase").fill(PASSPHRASE);
  await sidebar.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(sidebar.getByTestId("vault-locked")).toHaveCount(0, { timeout: 30_000 });
  await expect(sidebar.getByRole("button", { name: /^Chat 20/ })).toBeVisible();
  const worker = await started;
  expect(await worker.evaluate(() => self.name)).toBe("hush-search");

  // Open a chat first, so it can be continued while search stays open.
  await sidebar.getByRole("button", { name: /^Chat 20/ }).click();
  await expect(page.locator('[data-role="assistant"]')).toContainText("Answer 20");

  expect(batches, "nothing is read for search before search opens").toEqual([]);
  await sidebar.getByRole("button", { name: "Search chats" }).click();
  expect(page.workers().length, "search uses the worker already started").toBe(1);
  const box = sidebar.getByRole("combobox", { name: "Search chats" });
  await expect(sidebar.getByTestId("search-progress")).toContainText(`${N} chats searched in this browser`, { timeout: 30_000 });
  await box.fill("quokka");
  const results = sidebar.getByRole("listbox", { name: "Search results" });
  await expect(results.getByRole("option")).toHaveCount(1);
  await expect(results.getByRole("option").first()).toContainText("Chat 7");
  await expect(results.locator("mark")).toHaveText(["quokka"]);
  await expect(results.getByTestId("search-snippet")).toContainText("The quokka likes it.");
  await box.fill("garden");
  await expect(results.getByRole("option")).toHaveCount(30);

  // Continued while search is open: the saved turn reaches the worker's index without reading it again.
  batches.length = 0;
  const input = page.getByPlaceholder("Message GPT");
  await input.fill("Tell me about zanzibar spices");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("You asked: Tell me about zanzibar spices");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await box.fill("zanzibar");
  await expect(results.getByRole("option")).toHaveCount(1);
  await expect(results.getByRole("option").first()).toContainText("Chat 20");
  await expect(results.locator("mark")).toHaveText(["zanzibar"]);
  expect(batches).toEqual([]);

  // Deleted (past the undo window): gone from the results.
  await box.press("Escape");
  await sidebar.getByRole("button", { name: "Delete Chat 7" }).click();
  await page.getByRole("dialog", { name: "Delete this chat?" }).getByRole("button", { name: "Delete", exact: true }).click();
  const deleted = await page.waitForResponse((r) => r.url().includes("/api/ns/delete_chat"), { timeout: 15_000 });
  expect(deleted.status()).toBe(200);
  await sidebar.getByRole("button", { name: "Search chats" }).click();
  await expect(sidebar.getByTestId("search-progress")).toContainText(`${N - 1} chats searched in this browser`);
  await box.fill("quokka");
  await expect(sidebar.getByText("No chats match")).toBeVisible();
  await box.fill("zanzibar");
  await expect(results.getByRole("option")).toHaveCount(1);
});
