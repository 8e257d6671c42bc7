import { expect, test } from "@playwright/test";
import { E2E_APP_PORT, E2E_CONFIDENTIAL_APP_PORT, E2E_SEARCH_PORT } from "../playwright.config";
import { signInByEmail } from "./helpers/auth";
import { sidebarOf, turnOnHistoryWithPassphrase, unlockWithPassphrase } from "./helpers/vault";

/**
 * A device tool's round trip end to end (docs/issues.md #50) against the production build: the browser offers
 * `device_time`, the model calls it (lib/shared/llm/tools.ts scriptedToolCall: "what time is it on my device?"), the
 * answer pauses, the browser runs the tool and continues the turn (lib/browser/chat/turn-runner.ts), and the answer
 * quotes the device's local time and zone. On the standard instance (the fake LLM) and on the confidential one (the
 * development enclave; its relay request carries the continuation token in clear, the rest is ciphertext). A saved
 * chat keeps each step sealed with its answer: reloaded, the answer shows it as a closed step that opens to what it
 * sent and what came back.
 */
const LLM = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;
const QUESTION = "What time is it on my device?";
const SHOTS = process.env.E2E_SHOTS_DIR ?? "test-results/shots-steps";
const DEVICE_ANSWER = /(On your device|Your device answered): \{"local":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d","zone":"[^"]+"\}/;

test("standard model: the answer uses this device's time, after one paused step", async ({ page }) => {
  await page.request.delete(`${LLM}/__requests`);
  await page.goto(`http://127.0.0.1:${E2E_APP_PORT}/chat`);
  const input = page.getByPlaceholder("Message GPT");
  const chats: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/ns/chat")) chats.push(r.postData() ?? "");
  });
  await input.fill(QUESTION);
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText(DEVICE_ANSWER);
  // Two requests of one turn: the first offered the tool, the second carried the result and the token.
  expect(chats).toHaveLength(2);
  expect(JSON.parse(chats[0]!)).toMatchObject({ tools: ["device_time"], continuation: null });
  expect(JSON.parse(chats[1]!).continuation.steps[0].results[0]).toMatchObject({ role: "tool" });
  const requests = (await (await page.request.get(`${LLM}/__requests`)).json()) as { tools: string[]; messages: { role: string }[] }[];
  expect(requests.map((r) => r.tools)).toEqual([["device_time"], ["device_time"]]);
  expect(requests.at(-1)!.messages.at(-1)!.role).toBe("tool");
});

test("confidential model: the same round trip inside the encrypted requests", async ({ page }) => {
  await page.goto(`http://127.0.0.1:${E2E_CONFIDENTIAL_APP_PORT}/chat`);
  await expect(page.getByTestId("model-privacy-badge")).toHaveText("Verified (development)");
  const relayed: { token: string | undefined; body: Buffer | null }[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/confidential/chat")) relayed.push({ token: r.headers()["x-hush-continuation"], body: r.postDataBuffer() });
  });
  const input = page.getByPlaceholder("Message GPT");
  await input.fill(QUESTION);
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText(DEVICE_ANSWER);
  expect(relayed.map((r) => r.token === undefined)).toEqual([true, false]);
  for (const { body } of relayed) expect(body?.includes(Buffer.from("device_time")) ?? false).toBe(false);
});

test("a saved chat keeps its answers' steps: reloaded, each is a closed step that opens to what it sent and what came back", async ({ page }) => {
  test.slow(); // the vault setup (Argon2id) and an unlock
  const passphrase = "copper lanterns glow over quiet canals";
  await signInByEmail(page, `steps-${Date.now()}@example.com`);
  await turnOnHistoryWithPassphrase(page, passphrase);
  const input = page.getByPlaceholder("Message GPT");
  await input.fill(QUESTION);
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText(DEVICE_ANSWER);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  // A second turn that searches the web, in the same chat.
  const search = "How many kākāpō chicks hatched in the 2026 breeding season?";
  await page.getByRole("button", { name: "Search the web" }).click();
  await input.fill(search);
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("From the web:");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  const sidebar = sidebarOf(page);
  await expect(sidebar.getByRole("button", { name: /^What time is it on my/ }).first()).toBeVisible();

  await page.reload();
  await unlockWithPassphrase(sidebar, passphrase);
  await sidebar.getByRole("navigation", { name: "Saved chats" }).getByRole("listitem").first().getByRole("button").first().click();
  const [timeAnswer, searchAnswer] = [page.locator('[data-role="assistant"]').nth(0), page.locator('[data-role="assistant"]').nth(1)];
  await expect(timeAnswer).toContainText(DEVICE_ANSWER);

  // The device tool's step: closed, titled with what happened; opened, its arguments and the device's answer.
  const toolStep = timeAnswer.getByTestId("answer-step");
  await expect(toolStep).toHaveCount(1);
  await expect(toolStep).not.toHaveAttribute("open", "");
  const toolSummary = toolStep.locator("summary");
  await expect(toolSummary).toHaveText("Checked this device's time");
  await expect(toolStep.getByTestId("step-came-back")).toBeHidden();
  await toolSummary.focus();
  await page.keyboard.press("Enter");
  await expect(toolStep.getByTestId("step-sent")).toHaveText("SentNo arguments");
  await expect(toolStep.getByTestId("step-came-back")).toContainText(/"local": "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"/);
  await expect(toolStep.getByTestId("step-came-back")).toContainText('"zone":');

  // The search's step: the disclosure as before, opening to the query as sent and the results that came back.
  const searchStep = searchAnswer.getByTestId("answer-step");
  const engine = `by SearXNG at 127.0.0.1:${E2E_SEARCH_PORT}`;
  await expect(searchAnswer.getByTestId("search-disclosure")).toHaveText(`Searched the web for: “${search}” (${engine})`);
  await expect(searchStep.getByTestId("step-sent")).toBeHidden();
  await searchStep.locator("summary").click();
  await expect(searchStep.getByTestId("step-sent")).toContainText(`“${search}” (${engine})`);
  await expect(searchStep.getByTestId("step-came-back")).toContainText("[1]");
  await expect(searchStep.getByTestId("step-came-back")).toContainText("kakapo");
  for (const [width, name] of [[1280, "desktop"], [390, "phone"]] as const) {
    await page.setViewportSize({ width, height: width > 400 ? 800 : 844 });
    await timeAnswer.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/steps-tool-${name}.png` });
    await searchStep.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/steps-search-${name}.png` });
  }
});
