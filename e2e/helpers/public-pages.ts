import type { Page } from "@playwright/test";

/** Helpers for the public-page specs (e2e/public-pages-*.spec.ts). */

/**
 * Wait until no new request has started for a second (at most 15 s): `requested` is the list of URLs the caller's
 * request listener fills. Not "networkidle": Next leaves the prefetch of a not-yet-existing route (a 404 RSC answer
 * whose body it never reads) open for good.
 */
export async function settle(page: Page, requested: readonly string[]) {
  let last = -1;
  for (let i = 0; i < 15 && requested.length !== last; i++) {
    last = requested.length;
    await page.waitForTimeout(1000);
  }
}

/** The `content` attribute of the first element matching `selector` (a <meta> tag), or null. */
export async function metaContent(page: Page, selector: string): Promise<string | null> {
  return page.locator(selector).first().getAttribute("content");
}
