import { expect, test, type Page } from "@playwright/test";

/**
 * Follow-up questions keep the document, and long chats are fitted to the model's context budget
 * (docs/issues.md #8), in the browser against the production build. The fake OpenAI-compatible server records
 * every request it receives (GET /__requests), so these tests assert on what the model was sent.
 */
const SCREENS = "test-results/screens";
const LLM = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;

interface Received {
  messages: { role: string; content: string }[];
}

async function received(page: Page): Promise<Received[]> {
  return (await page.request.get(`${LLM}/__requests`)).json();
}

async function openChat(page: Page) {
  await page.request.delete(`${LLM}/__requests`);
  await page.goto("/chat");
  await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();
}

async function send(page: Page, text: string) {
  const input = page.getByPlaceholder("Message GPT");
  await input.fill(text);
  await input.press("Enter");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible({ timeout: 30_000 });
  await expect(input).toHaveValue("");
}

test("a visitor's follow-up question about a PDF still reaches the model with the document; New chat forgets it", async ({ page }) => {
  await openChat(page);
  await page.getByTestId("file-input").setInputFiles("tests/fixtures/e2e-report.pdf");
  await send(page, "What is this report about?");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("Hush quarterly privacy report");

  await send(page, "What does the second page say?");
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText("You asked: What does the second page say?");
  await expect(answer).toContainText("The document begins: Hush quarterly privacy report");
  const second = (await received(page)).at(-1)!;
  const latest = second.messages.at(-1)!;
  expect(latest.role).toBe("user");
  expect(latest.content).toContain('<document name="e2e-report.pdf">');
  expect(latest.content).toContain("Hush quarterly privacy report");
  expect(latest.content.endsWith("What does the second page say?")).toBe(true);
  await expect(page.getByTestId("context-notice")).toHaveCount(0);

  await page.getByRole("button", { name: /New chat/ }).first().click();
  await send(page, "A fresh question");
  const fresh = (await received(page)).at(-1)!;
  expect(fresh.messages.some((m) => m.content.includes("<document name="))).toBe(false);
  expect(fresh.messages.map((m) => m.role)).toEqual(["system", "user"]);
});

test("a long chat keeps going: the oldest content is left out and the chat says so", async ({ page }) => {
  test.setTimeout(120_000);
  await openChat(page);
  // Each turn is about 60,000 bytes (the fake model repeats the question): the third passes Basic's
  // 32,000-token budget. One long word per turn so the fake model streams it in one piece.
  for (let turn = 1; turn <= 3; turn++) {
    await send(page, `Turn ${turn} ${String.fromCharCode(96 + turn).repeat(29_000)}`);
    await expect(page.locator('[data-role="assistant"]')).toHaveCount(turn);
  }
  const notice = page.getByTestId("context-notice");
  await expect(notice).toBeVisible();
  await expect(notice).toHaveText(/^Older content was left out to fit the model's limit: the first (message|\d+ messages) of this chat (was|were) not sent to the model\.$/);
  const last = (await received(page)).at(-1)!;
  expect(last.messages[0]!.role).toBe("system");
  // The first user message was left out (its answer, the next message, may still be there).
  expect(last.messages.some((m) => m.role === "user" && m.content.startsWith("Turn 1 "))).toBe(false);
  expect(last.messages.at(-1)!.content.startsWith("Turn 3 ")).toBe(true);
  // Everything stays on screen: only the model's copy was trimmed.
  await expect(page.locator('[data-role="user"]')).toHaveCount(3);
  await notice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/chat-context-notice-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await notice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/chat-context-notice-mobile.png` });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
