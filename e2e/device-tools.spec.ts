import { expect, test } from "@playwright/test";
import { E2E_APP_PORT, E2E_CONFIDENTIAL_APP_PORT } from "../playwright.config";

/**
 * A device tool's round trip end to end (docs/issues.md #50) against the production build: the browser offers
 * `device_time`, the model calls it (lib/shared/llm/tools.ts scriptedToolCall: "what time is it on my device?"), the
 * answer pauses, the browser runs the tool and continues the turn (lib/browser/chat/turn-runner.ts), and the answer
 * quotes the device's local time and zone. On the standard instance (the fake LLM) and on the confidential one (the
 * development enclave; its relay request carries the continuation token in clear, the rest is ciphertext).
 */
const LLM = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;
const QUESTION = "What time is it on my device?";
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
