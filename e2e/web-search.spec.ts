import { expect, test } from "@playwright/test";
import { E2E_APP_PORT, E2E_SEARCH_PORT } from "../playwright.config";
import { SEARCH_CORPUS } from "../dev/searxng";

/**
 * "Search the web" end to end (docs/issues.md #40, #50) against the production build: on the instance whose SEARXNG_URL
 * names the fake SearXNG (dev/searxng.ts, started by scripts/search-dev.ts), a visitor turns the toggle on, asks,
 * and sees the answer's Sources linking to the engine's result URLs (no referrer, no opener) and the exact query
 * disclosed; with the toggle off no query reaches the engine. The default model calls functions, so the fake LLM
 * writes the query through the web_search tool (lib/shared/llm/tools.ts scriptedToolCall): a follow-up is searched
 * with the earlier topic in it.
 */
const APP = `http://127.0.0.1:${E2E_APP_PORT}`;
const ENGINE = `http://127.0.0.1:${E2E_SEARCH_PORT}`;
const LLM = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;
const QUESTION = "How many kākāpō chicks hatched in the 2026 breeding season?";

test("a visitor turns on Search the web, asks, and sees Sources and the exact query; off, nothing is searched", async ({ page }) => {
  await page.request.delete(`${ENGINE}/__queries`);
  await page.request.delete(`${LLM}/__requests`);
  await page.goto(`${APP}/chat`);
  await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();
  const toggle = page.getByRole("button", { name: "Search the web" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  const input = page.getByPlaceholder("Message GPT");

  // Off (the default): the turn is answered and no query reaches the engine.
  await input.fill("Tell me about the kākāpō breeding season.");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("You asked: Tell me about the kākāpō breeding season.");
  expect(await (await page.request.get(`${ENGINE}/__queries`)).json()).toEqual([]);
  await expect(page.getByTestId("sources")).toHaveCount(0);

  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await input.fill(QUESTION);
  await input.press("Enter");
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText("From the web: The 2026 kākāpō breeding season produced 41 chicks");
  await expect(answer).toContainText("[1]");

  const sources = answer.getByRole("region", { name: "Sources" });
  await expect(sources).toBeVisible();
  for (const entry of SEARCH_CORPUS.slice(0, 2)) {
    const link = sources.getByRole("link", { name: entry.title });
    await expect(link).toHaveAttribute("href", entry.url);
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
    await expect(link).toHaveAttribute("referrerpolicy", "no-referrer");
    await expect(link.locator("xpath=..")).toContainText(new URL(entry.url).hostname);
  }
  await expect(answer.getByTestId("search-disclosure")).toHaveText(`Searched the web for: “${QUESTION}” (by SearXNG at 127.0.0.1:${E2E_SEARCH_PORT})`);
  // The engine received exactly that query, once; the model was offered the tool and its results came back as a tool message.
  expect(await (await page.request.get(`${ENGINE}/__queries`)).json()).toEqual([QUESTION]);
  const requests = (await (await page.request.get(`${LLM}/__requests`)).json()) as { tools: string[]; messages: { role: string; content: string }[] }[];
  // The server offers read_page beside web_search (docs/issues.md #51), the browser its device tools (docs/issues.md #50).
  expect(requests.at(-1)!.tools).toEqual(["web_search", "read_page", "device_time"]);
  expect(requests.at(-1)!.messages.at(-1)!.role).toBe("tool");
  expect(requests.at(-1)!.messages.at(-1)!.content).toContain(`url="${SEARCH_CORPUS[0]!.url}"`);
  // The toggle stays on for this chat.
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await page.screenshot({ path: "test-results/shots-web-search/answer-with-sources.png" });

  // A follow-up: the model writes the query from the conversation, and the disclosure shows it as sent.
  const followUp = "and the year before?";
  await input.fill(followUp);
  await input.press("Enter");
  const second = page.locator('[data-role="assistant"]').last();
  await expect(second).toContainText(`You asked: ${followUp}`);
  await expect(second.getByTestId("search-disclosure")).toHaveText(`Searched the web for: “${QUESTION} ${followUp}” (by SearXNG at 127.0.0.1:${E2E_SEARCH_PORT})`);
  expect(await (await page.request.get(`${ENGINE}/__queries`)).json()).toEqual([QUESTION, `${QUESTION} ${followUp}`]);
});
