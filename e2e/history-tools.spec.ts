import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { signInByEmail } from "./helpers/auth";
import { generateVaultKey, importVaultKey } from "../lib/browser/vault/crypto";
import { openTitle, passphraseMethod, recoveryMethod, sealTurn } from "../lib/browser/vault/seal";

/**
 * History tools of docs/issues.md #9 end to end, in both themes at 1280×800 and 390×844: rename in place (stored
 * sealed, kept after a reload), the date groups, search over decrypted message text with highlights,
 * delete with Undo, and delete without it. The test plays the browser for the setup: it makes the vault
 * key, creates the vault (passphrase + recovery code) and saves chats sealed under it through the real
 * API, then the page unlocks with the passphrase as a person would.
 */
const SCREENS = process.env.E2E_SHOTS_DIR ?? "test-results/screens/history";
const PASSPHRASE = "quiet harbour lanterns";
const THEMES = ["light", "dark"] as const;
const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "mobile", width: 390, height: 844 },
] as const;

const CHATS = [
  { title: "Weekend bread baking plan", q: "How long should sourdough proof?", a: "About 4 to 6 hours at room temperature." },
  { title: "Garden layout ideas", q: "What grows well next to tomatoes?", a: "Basil, marigolds and carrots are good companions." },
  { title: "Trip to Lisbon", q: "Where should I eat in Lisbon?", a: "Try the pastries in Belém; the quokka café is a joke, ignore it." },
  { title: "Budget spreadsheet", q: "Help me sort my monthly costs", a: "Group them into housing, food and transport." },
  { title: "Old tax questions", q: "When is the filing deadline?", a: "Usually 31 July for individuals." },
  { title: "Birthday gift ideas", q: "Gift for a friend who likes hiking?", a: "A good headlamp or a trail guide book." },
];

/** Days back each listed chat appears to be from (the list's order: newest first). */
const DAYS_BACK = [0, 0, 1, 3, 12, 75];

interface Seeded {
  userId: string;
  key: CryptoKey;
  ids: string[];
}

/** Sign in, create the vault and save CHATS through the API (oldest first, so the list is CHATS reversed). */
async function seed(page: Page, email: string): Promise<Seeded> {
  await signInByEmail(page, email);
  const origin = new URL(page.url()).origin;
  const headers = { Origin: origin, "Content-Type": "application/json" };
  const state = (await (await page.request.get("/api/vault")).json()) as { user_id: string };
  const userId = state.user_id;
  const raw = generateVaultKey();
  const methods = [await passphraseMethod(raw, userId, PASSPHRASE), (await recoveryMethod(raw, userId)).method];
  expect((await page.request.post("/api/vault", { headers, data: { methods } })).status()).toBe(201);
  expect((await page.request.patch("/api/vault", { headers, data: { history_on: true } })).status()).toBe(200);
  const key = await importVaultKey(raw);
  const ids: string[] = [];
  for (const c of [...CHATS].reverse()) {
    const chatId = crypto.randomUUID();
    const body = await sealTurn({
      key,
      userId,
      chatId,
      create: true,
      firstPosition: 0,
      messages: [
        { role: "user", content: c.q },
        { role: "assistant", content: c.a },
      ],
      title: c.title,
    });
    expect((await page.request.post("/api/ns/chat_save", { headers, data: body })).status()).toBe(200);
    ids.unshift(chatId);
  }
  return { userId, key, ids };
}

/**
 * The list as the server sends it, with last_updated moved back per DAYS_BACK so every group shows
 * (the server stamps saves with its own clock; the grouping itself is unit-tested in
 * tests/unit/chat-groups.test.ts). Order and ciphertext are untouched.
 */
async function ageTheList(page: Page) {
  await page.route(/\/api\/ns\/chat_history\?/, async (route) => {
    let res;
    let body: { chat_history: { last_updated: string }[] };
    try {
      res = await route.fetch();
      body = (await res.json()) as typeof body;
    } catch {
      // The page moved on (a reload, or the test's end) while the list was on its way: nothing to age.
      // The vault's whole-list check after each unlock (docs/issues.md #21) makes such overlaps likelier.
      return;
    }
    body.chat_history.forEach((c, i) => {
      const days = DAYS_BACK[i] ?? 120;
      if (!days) return;
      // Noon of the local day `days` back (the browser and this process share the machine's zone), a
      // minute apart per position: "24 hours ago" was the day before yesterday just after midnight.
      const at = new Date();
      at.setDate(at.getDate() - days);
      at.setHours(12, 0, 0, 0);
      c.last_updated = new Date(at.getTime() - i * 60_000).toISOString();
    });
    await route.fulfill({ response: res, json: body }).catch(() => undefined);
  });
}

const sidebarOf = (page: Page) => page.getByRole("complementary", { name: "Chat history" });

async function openDrawer(page: Page, mobile: boolean) {
  if (!mobile) return;
  if (await sidebarOf(page).isVisible()) return;
  await page.getByRole("button", { name: "Toggle chat history" }).click();
  await expect(sidebarOf(page)).toBeVisible();
}

async function unlock(page: Page, mobile: boolean) {
  await openDrawer(page, mobile);
  const sidebar = sidebarOf(page);
  await sidebar.getByLabel("Passphrase").fill(PASSPHRASE);
  await sidebar.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(sidebar.getByTestId("vault-locked")).toHaveCount(0, { timeout: 30_000 });
  await expect(sidebar.getByRole("button", { name: /^Budget spreadsheet/ })).toBeVisible();
}

/** Wait for the toasts' entry transitions to end, so a screenshot shows them as a person sees them. */
async function settleToasts(page: Page) {
  await page.locator("[data-sonner-toast]").first().evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
}

async function expectNoAxeViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

async function contextFor(browser: Browser, theme: (typeof THEMES)[number], size: (typeof SIZES)[number]) {
  return browser.newContext({ colorScheme: theme, viewport: { width: size.width, height: size.height } });
}

for (const size of SIZES) {
  for (const theme of THEMES) {
    const mobile = size.name === "mobile";
    const shot = (name: string) => `${SCREENS}/${name}-${size.name}-${theme}.png`;

    test(`history tools: groups, rename, search, delete with Undo (${size.name}, ${theme})`, async ({ browser }) => {
      test.slow(); // Argon2id unlocks twice, on a shared machine
      const context = await contextFor(browser, theme, size);
      const page = await context.newPage();
      const seeded = await seed(page, `history-tools-${size.name}-${theme}-${Date.now()}@example.com`);
      await ageTheList(page);
      const deletes: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/ns/delete_chat")) deletes.push(r.method());
      });
      await page.goto("/chat");
      await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
      await unlock(page, mobile);
      const sidebar = sidebarOf(page);

      // Groups, newest first (docs/product.md §2 order kept inside and across them).
      await expect(sidebar.getByTestId("chat-group")).toHaveText(["Today", "Yesterday", "Previous 7 days", "Previous 30 days", /^[A-Z][a-z]+ \d{4}$/]);
      const names = await sidebar.locator("li button[id^=chat-] span:first-child").allInnerTexts();
      expect(names).toEqual(CHATS.map((c) => c.title));
      await page.screenshot({ path: shot("groups") });

      // Rename in place: F2 on a focused chat (desktop) or its Rename button (touch); Escape cancels.
      const garden = sidebar.getByRole("button", { name: /^Garden layout ideas/ });
      if (mobile) await sidebar.getByRole("button", { name: "Rename Garden layout ideas" }).click();
      else {
        await garden.focus();
        await page.keyboard.press("F2");
      }
      const field = sidebar.getByLabel("Chat name");
      await expect(field).toBeFocused();
      await field.fill("Should not stick");
      await field.press("Escape");
      await expect(field).toHaveCount(0);
      await expect(garden).toBeVisible();
      await sidebar.getByRole("button", { name: "Rename Garden layout ideas" }).click();
      await expect(field).toHaveValue("Garden layout ideas");
      await field.fill("Vegetable patch 2027");
      await page.screenshot({ path: shot("rename") });
      await field.press("Enter");
      await expect(page.getByText("Chat renamed")).toBeVisible();
      const renamed = sidebar.getByRole("button", { name: /^Vegetable patch 2027/ });
      await expect(renamed).toBeVisible();
      // Not moved: still second.
      expect((await sidebar.locator("li button[id^=chat-] span:first-child").allInnerTexts())[1]).toBe("Vegetable patch 2027");
      // The server holds the new name only sealed: its answers never contain it, and the vault key opens it.
      const listed = (await (await page.request.get("/api/ns/chat_history?limit=100")).json()) as { chat_history: { chat_id: string; display_name_ciphertext: string | null }[] };
      const raw = JSON.stringify(listed);
      expect(raw).not.toContain("Vegetable patch");
      expect(raw).not.toContain(Buffer.from("Vegetable patch 2027").toString("base64"));
      const entry = listed.chat_history.find((c) => c.chat_id === seeded.ids[1])!;
      expect(await openTitle(seeded.key, seeded.userId, entry.chat_id, entry.display_name_ciphertext)).toBe("Vegetable patch 2027");

      // Search: a word only in a message body, highlighted; the keyboard shortcut opens it on desktop.
      if (mobile) await sidebar.getByRole("button", { name: "Search chats" }).click();
      else await page.keyboard.press("ControlOrMeta+k");
      const box = sidebar.getByRole("combobox", { name: "Search chats" });
      await expect(box).toBeFocused();
      await expect(sidebar.getByTestId("search-progress")).toContainText(`${CHATS.length} chats searched in this browser`);
      await box.fill("quokka");
      const results = sidebar.getByRole("listbox", { name: "Search results" });
      await expect(results.getByRole("option")).toHaveCount(1);
      await expect(results.getByRole("option").first()).toContainText("Trip to Lisbon");
      await expect(results.locator("mark")).toHaveText(["quokka"]);
      await expect(results.getByTestId("search-snippet")).toContainText("the quokka café");
      // A title word matches too, highlighted in the title; the renamed title is searchable at once.
      await box.fill("vegetable");
      await expect(results.getByRole("option")).toHaveCount(1);
      await expect(results.locator("mark")).toHaveText(["Vegetable"]);
      await box.fill("quok");
      await expect(results.getByRole("option")).toHaveCount(1);
      await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 10_000 });
      await page.screenshot({ path: shot("search") });
      await expectNoAxeViolations(page, `/chat with search open (${size.name}, ${theme})`);
      // Escape closes it; opening again and Enter opens the (first) result.
      await box.press("Escape");
      await expect(box).toHaveCount(0);
      await sidebar.getByRole("button", { name: "Search chats" }).click();
      await box.fill("quokka");
      await expect(results.getByRole("option")).toHaveCount(1);
      await box.press("ArrowDown");
      await expect(results.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
      await box.press("Enter");
      await expect(page.locator('[data-role="assistant"]')).toContainText("the quokka café");
      await openDrawer(page, mobile);

      // Delete with Undo: confirmed, gone from the list, restored by Undo, and no DELETE was ever sent.
      await sidebar.getByRole("button", { name: "Delete Budget spreadsheet" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete this chat?" });
      await expect(dialog).toContainText("“Budget spreadsheet” will be deleted for good.");
      await expect(dialog).toContainText("A share link made from it keeps its copy until you revoke it in Settings.");
      await dialog.getByRole("button", { name: "Delete", exact: true }).click();
      await expect(sidebar.getByRole("button", { name: /^Budget spreadsheet/ })).toHaveCount(0);
      const toastUndo = page.getByRole("button", { name: "Undo" });
      await expect(toastUndo).toBeVisible();
      await settleToasts(page);
      await page.screenshot({ path: shot("undo-toast") });
      await toastUndo.click();
      await expect(page.getByText("Chat restored")).toBeVisible();
      await expect(sidebar.getByRole("button", { name: /^Budget spreadsheet/ })).toBeVisible();
      await page.waitForTimeout(5500); // past the undo window: still nothing sent
      expect(deletes).toEqual([]);

      // Delete without Undo: the DELETE leaves after the window, and the chat is gone after a reload.
      await sidebar.getByRole("button", { name: "Delete Birthday gift ideas" }).click();
      await dialog.getByRole("button", { name: "Delete", exact: true }).click();
      await expect(sidebar.getByRole("button", { name: /^Birthday gift ideas/ })).toHaveCount(0);
      const deleted = await page.waitForResponse((r) => r.url().includes("/api/ns/delete_chat"), { timeout: 10_000 });
      expect(deleted.status()).toBe(200);
      await expect.poll(() => deletes.length).toBe(1);

      await page.reload();
      await unlock(page, mobile);
      await expect(sidebar.getByRole("button", { name: /^Vegetable patch 2027/ })).toBeVisible();
      await expect(sidebar.getByRole("button", { name: /^Garden layout ideas/ })).toHaveCount(0);
      await expect(sidebar.getByRole("button", { name: /^Budget spreadsheet/ })).toBeVisible();
      await expect(sidebar.getByRole("button", { name: /^Birthday gift ideas/ })).toHaveCount(0);
      await context.close();
    });
  }
}

test("a deletion still inside its undo window is sent when the page is left (fetch keepalive on pagehide)", async ({ browser }) => {
  test.slow();
  const context = await contextFor(browser, "light", SIZES[0]);
  const page = await context.newPage();
  const seeded = await seed(page, `history-tools-leave-${Date.now()}@example.com`);
  await page.goto("/chat");
  await unlock(page, false);
  const sidebar = sidebarOf(page);
  await sidebar.getByRole("button", { name: "Delete Trip to Lisbon" }).click();
  await page.getByRole("dialog", { name: "Delete this chat?" }).getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByRole("button", { name: "Undo" })).toBeVisible();
  // Leave at once, well inside the 5 seconds.
  await page.goto("/pricing");
  await expect
    .poll(async () => {
      const list = (await (await page.request.get("/api/ns/chat_history?limit=100")).json()) as { chat_history: { chat_id: string }[] };
      return list.chat_history.map((c) => c.chat_id).includes(seeded.ids[2]!);
    })
    .toBe(false);
  await context.close();
});
