import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * What /chat's first load carries (docs/issues.md #42, docs/performance.md "Lean and light"): the module scripts its
 * HTML references. The sizes are measured in `npm run bench:lean`; these checks guard what was moved out of it.
 */

/** The bodies of the module scripts (noModule ones left out) that `path`'s HTML references. */
async function firstLoadScripts(request: APIRequestContext, path: string): Promise<{ src: string; body: string }[]> {
  const html = await (await request.get(path)).text();
  const srcs = [...html.matchAll(/<script\b([^>]*)>/g)]
    .map((m) => m[1]!)
    .filter((attrs) => !/\bnoModule\b/i.test(attrs))
    .map((attrs) => /\bsrc="([^"]+)"/.exec(attrs)?.[1])
    .filter((src): src is string => Boolean(src));
  expect(srcs.length).toBeGreaterThan(0);
  return Promise.all(srcs.map(async (src) => ({ src, body: await (await request.get(src)).text() })));
}

test("/chat's first load carries neither zod nor the code that only runs later", async ({ request }) => {
  const scripts = await firstLoadScripts(request, "/chat");
  const holding = (marker: string) => scripts.filter((s) => s.body.includes(marker)).map((s) => s.src);
  // zod (its core type's name): the API contract and the saved search record load on first use.
  expect(holding('"$ZodType"')).toEqual([]);
  // Strings of modules that load on demand: export, key rotation, the standard model's dialog, project files.
  expect(holding("Exported this chat as")).toEqual([]);
  expect(holding("Failed to finish the vault key rotation")).toEqual([]);
  expect(holding("which processes them to answer")).toEqual([]);
  expect(holding("Could not delete the file. Check your connection and try again.")).toEqual([]);
  // The vault's crypto and sealing (fetched with GET /api/vault, or at a draft's first use), and the keyboard
  // shortcuts' library (bound just after the first paint).
  expect(holding("That is not a recovery code")).toEqual([]);
  expect(holding("Unlock your history to save this chat.")).toEqual([]);
  expect(holding("which is not supported.")).toEqual([]);
  // docs/issues.md #51: the Python runner and its worker load with the first run_code call.
  expect(holding("The Python worker did not start.")).toEqual([]);
  expect(holding("Refused a request while Python loads")).toEqual([]);
});

test("the code moved out of /chat's first load still arrives when used: the standard model's dialog", async ({ page }) => {
  await page.goto("/chat");
  await page.getByTestId("model-privacy-badge").click();
  await expect(page.getByTestId("standard-privacy-line")).toBeVisible();
  await expect(page.getByRole("dialog")).toContainText("Hush does not store or log them.");
});
