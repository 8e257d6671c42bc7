import { expect, test } from "@playwright/test";

/**
 * docs/issues.md #56: a shortcut pressed as soon as /chat is on screen counts, although react-hotkeys-hook loads
 * after the first paint (components/chat/early-shortcuts.ts holds the press until it binds). The library's chunk
 * is held back here until after the press, so the press always comes first.
 */
test("Ctrl+/ pressed as soon as /chat loads, before the shortcut library has arrived, opens the shortcuts list", async ({ page }) => {
  let releaseLibrary!: () => void;
  const libraryHeld = new Promise<void>((resolve) => (releaseLibrary = resolve));
  let libraryServed = false;
  await page.route("**/_next/static/chunks/**", async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    // react-hotkeys-hook's own warning, the marker e2e/first-load.spec.ts keeps out of the first load.
    if (body.includes("which is not supported.")) {
      await libraryHeld;
      libraryServed = true;
    }
    await route.fulfill({ response, body });
  });

  await page.goto("/chat");
  // Hydrated (React has attached itself to the composer): the chat's first render has run.
  await page.waitForFunction(() => Object.keys(document.getElementById("chat-input") ?? {}).some((k) => k.startsWith("__reactFiber")));
  await page.keyboard.press("Control+Slash");
  expect(libraryServed).toBe(false);
  releaseLibrary();
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  expect(libraryServed).toBe(true);
});
