import { expect, test, type Page } from "@playwright/test";
import { send } from "./helpers/chat";
import { LOCAL, sidebarOf, signInOnLocalhost, turnOnHistoryWithPassphrase, unlockWithPassphrase } from "./helpers/vault";

/**
 * docs/issues.md #23 in the browser against the production build: projects with custom instructions (their
 * instructions reach the model as a system message; create, rename, delete, move a chat in and out; the
 * name is never in clear on the server), the temporary chat (never saved) and the title the model gives a
 * chat after its first exchange. The fake OpenAI-compatible server records what it receives (GET /__requests).
 */
const SCREENS = "test-results/screens";
const LLM = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;
const PASSPHRASE = "projects keep their secrets well";
const PHONE = { width: 390, height: 844 };

interface Received {
  messages: { role: string; content: string }[];
}

async function received(page: Page): Promise<Received[]> {
  return (await page.request.get(`${LLM}/__requests`)).json();
}

async function start(page: Page, who: string) {
  await signInOnLocalhost(page, `${who}-${Date.now()}@example.com`);
  await turnOnHistoryWithPassphrase(page, PASSPHRASE);
}

/** Screenshots of the page on a desktop and on a phone (the sidebar opened as a drawer when `drawer`). */
async function shoot(page: Page, name: string, drawer = false) {
  await page.screenshot({ path: `${SCREENS}/${name}-desktop.png` });
  await page.setViewportSize(PHONE);
  if (drawer) await page.getByRole("button", { name: "Toggle chat history" }).click();
  await page.screenshot({ path: `${SCREENS}/${name}-phone.png` });
  // The drawer opened on the phone is the open sidebar back on the desktop.
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a project's instructions reach the model; create, rename, move a chat out and in, delete; the name is sealed", async ({ page }) => {
  test.slow();
  await start(page, "projects");
  const sidebar = sidebarOf(page);
  const projects = sidebar.getByRole("region", { name: "Projects" });
  const name = `Garden plans ${Date.now()}`;
  const instructions = `Answer like a gardener. Canary ${crypto.randomUUID()}`;

  await projects.getByRole("button", { name: "+ New project" }).click();
  const dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Instructions").fill(instructions);
  await expect(dialog).toContainText(`${instructions.length} / 4,000`);
  await shoot(page, "project-new-dialog");
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(dialog).toBeHidden();
  // The new project is open: a new chat in it.
  await expect(projects.getByRole("button", { name, exact: true })).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("chat-project")).toHaveText(`Project: ${name}`);
  await expect(page.getByText(`New chat in the project “${name}”: its instructions apply.`)).toBeVisible();
  // docs/issues.md #41: clicking the project that is open keeps it open ("← All chats" leaves it).
  await projects.getByRole("button", { name, exact: true }).click();
  await expect(projects.getByRole("button", { name, exact: true })).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("chat-project")).toHaveText(`Project: ${name}`);

  await page.request.delete(`${LLM}/__requests`);
  await send(page, "What should I sow in spring");
  const first = (await received(page)).find((r) => r.messages.at(-1)!.content === "What should I sow in spring")!;
  // Hush's system message, the project's instructions, then memory's (on by default with a vault, docs/issues.md #41).
  expect(first.messages.map((m) => m.role)).toEqual(["system", "system", "system", "user"]);
  expect(first.messages[1]!.content).toContain(instructions);
  expect(first.messages[2]!.content).toContain("you may suggest remembering it");
  // Not shown on screen, not stored with the chat: the conversation is the user's message and the answer.
  await expect(page.locator('[data-role="user"]')).toHaveCount(1);
  await expect(page.getByText(instructions)).toHaveCount(0);
  const chatEntry = sidebar.getByRole("button", { name: /^What should I sow in spring/ });
  await expect(chatEntry).toBeVisible();
  await shoot(page, "project-chat", true);

  // The server holds only ciphertext of the name and instructions.
  const listed = (await (await page.request.get(`${LOCAL}/api/projects`)).json()) as { projects: { sealed: string }[]; chats: unknown[] };
  expect(listed.projects).toHaveLength(1);
  expect(listed.chats).toHaveLength(1);
  const raw = JSON.stringify(listed) + Buffer.from(listed.projects[0]!.sealed, "base64").toString("latin1");
  for (const secret of [name, instructions, "Garden plans", "Canary"]) expect(raw).not.toContain(secret);

  // Rename (the instructions stay).
  await projects.getByRole("button", { name: `Edit project ${name}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit project" });
  await expect(edit.getByLabel("Instructions")).toHaveValue(instructions);
  const renamed = `Vegetable garden ${Date.now()}`;
  await edit.getByLabel("Name").fill(renamed);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(projects.getByRole("button", { name: renamed, exact: true })).toBeVisible();
  await expect(page.getByTestId("chat-project")).toHaveText(`Project: ${renamed}`);

  // Move the open chat out of the project: it leaves the project's list for the chat list.
  await page.getByRole("button", { name: "Chat options" }).click();
  await page.getByRole("menuitem", { name: "Move to project…" }).click();
  const move = page.getByRole("dialog", { name: "Move chat to a project" });
  await expect(move.getByRole("radio", { name: renamed })).toBeChecked();
  await shoot(page, "project-move-dialog");
  await move.getByRole("radio", { name: "No project" }).check();
  await move.getByRole("button", { name: "Move" }).click();
  await expect(page.getByText("Removed from the project")).toBeVisible();
  await expect(page.getByTestId("chat-project")).toHaveCount(0);
  await expect(chatEntry).toHaveCount(0);
  // "All chats" (like picking a project) starts a new chat: open the moved one again.
  await projects.getByRole("button", { name: "← All chats" }).click();
  await chatEntry.click();
  await expect(page.locator('[data-role="user"]')).toHaveCount(1);
  // Outside the project, no instructions go with it.
  await page.request.delete(`${LLM}/__requests`);
  await send(page, "And in summer");
  const outside = (await received(page)).find((r) => r.messages.at(-1)!.content === "And in summer")!;
  // Hush's system message and memory's rule (on by default), no instructions.
  expect(outside.messages.filter((m) => m.role === "system")).toHaveLength(2);
  expect(JSON.stringify(outside.messages)).not.toContain(instructions);

  // And back in: its next turn sends them again.
  await page.getByRole("button", { name: "Chat options" }).click();
  await page.getByRole("menuitem", { name: "Move to project…" }).click();
  await move.getByRole("radio", { name: renamed }).check();
  await move.getByRole("button", { name: "Move" }).click();
  await expect(page.getByText(`Moved to “${renamed}”`)).toBeVisible();
  await expect(page.getByTestId("chat-project")).toHaveText(`Project: ${renamed}`);
  await expect(chatEntry).toHaveCount(0);
  await page.request.delete(`${LLM}/__requests`);
  await send(page, "And in autumn");
  const inside = (await received(page)).find((r) => r.messages.at(-1)!.content === "And in autumn")!;
  expect(inside.messages[1]).toEqual({ role: "system", content: expect.stringContaining(instructions) });

  // Delete the project: the dialog says its chats are kept, and they are.
  await projects.getByRole("button", { name: `Delete project ${renamed}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this project?" });
  await expect(confirm).toContainText("Its chats are not deleted: they move out of the project into your chat list.");
  await shoot(page, "project-delete-dialog");
  await confirm.getByRole("button", { name: "Delete project" }).click();
  await expect(page.getByText("Project deleted. Its chat is in your chat list.")).toBeVisible();
  await expect(projects.getByRole("listitem")).toHaveCount(0);
  await expect(chatEntry).toBeVisible();

  // After a reload (the vault locks), the chat is still there and the project is gone.
  await page.reload();
  await unlockWithPassphrase(sidebar, PASSPHRASE);
  await expect(chatEntry).toBeVisible();
  await expect(projects.getByRole("listitem")).toHaveCount(0);
  expect(((await (await page.request.get(`${LOCAL}/api/projects`)).json()) as { projects: unknown[] }).projects).toHaveLength(0);
});

test("a temporary chat is never saved, even with Save history on, and is gone after a reload", async ({ page }) => {
  test.slow();
  await start(page, "temporary");
  const saves: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/ns/chat_save")) saves.push(r.url());
  });
  const toggle = page.getByRole("button", { name: "Temporary chat" });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  const banner = page.getByTestId("temporary-chat-banner");
  await expect(banner).toHaveText("Temporary chat. It will not be saved, even with Save history on, and is gone when you leave it.");
  const chatCall = page.waitForRequest((r) => r.url().endsWith("/api/ns/chat_user"));
  await send(page, "Temporary thoughts about a surprise party");
  expect(JSON.parse((await chatCall).postData() ?? "{}")).toMatchObject({ save_chat: false });
  await expect(banner).toBeVisible();
  await shoot(page, "temporary-chat");
  await expect(sidebarOf(page).getByRole("button", { name: /^Temporary thoughts/ })).toHaveCount(0);
  expect(saves).toEqual([]);

  await page.reload();
  await unlockWithPassphrase(sidebarOf(page), PASSPHRASE);
  await expect(sidebarOf(page).getByText("Chats you send now are saved here.")).toBeVisible();
  await expect(sidebarOf(page).getByRole("button", { name: /^Temporary thoughts/ })).toHaveCount(0);
  await expect(page.getByTestId("temporary-chat-banner")).toHaveCount(0);
  const list = (await (await page.request.get(`${LOCAL}/api/ns/chat_history?limit=100`)).json()) as { chat_history: unknown[] };
  expect(list.chat_history).toHaveLength(0);
  expect(saves).toEqual([]);
});

test("the model names a chat after its first exchange, through the chat's own call; the user can still rename it", async ({ page }) => {
  test.slow();
  await start(page, "titles");
  const sidebar = sidebarOf(page);
  await page.request.delete(`${LLM}/__requests`);
  const question = "Please help me plan a week of vegetarian dinners for two";
  await send(page, question);
  // The fallback title (the first message) gives way to the generated one (the fake model's first six words).
  const entry = sidebar.getByRole("button", { name: /^Please help me plan a week(?! of)/ });
  await expect(entry).toBeVisible();
  await expect(entry.locator("span").first()).toHaveText("Please help me plan a week");
  const titleRequest = (await received(page)).find((r) => r.messages.at(-1)!.content.startsWith("Write a title of at most six words"))!;
  expect(titleRequest.messages.at(-1)!.content).toContain(`User: ${question}`);
  await shoot(page, "generated-title", true);
  // A later turn asks for no title again.
  await send(page, "Without mushrooms");
  expect((await received(page)).filter((r) => r.messages.at(-1)!.content.startsWith("Write a title")).length).toBe(1);

  await sidebar.getByRole("button", { name: "Rename Please help me plan a week" }).click();
  const field = sidebar.getByLabel("Chat name");
  await field.fill("Dinner plans");
  await field.press("Enter");
  await expect(page.getByText("Chat renamed")).toBeVisible();
  await page.reload();
  await unlockWithPassphrase(sidebar, PASSPHRASE);
  await expect(sidebar.getByRole("button", { name: /^Dinner plans/ })).toBeVisible();
});
