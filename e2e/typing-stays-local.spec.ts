import { expect, test, type Page } from "@playwright/test";
import { send } from "./helpers/chat";

/**
 * docs/issues.md #50: typing in the composer re-renders the composer alone, not the message list or the
 * history sidebar. React reports every commit to the DevTools hook, in production builds too; a stand-in
 * hook counts, per component function, the commits in which it rendered. Components are found by fiber
 * identity from the DOM nodes they render (production names are minified).
 */

interface Fiber {
  type: unknown;
  flags: number;
  child: Fiber | null;
  sibling: Fiber | null;
  alternate: Fiber | null;
  return: Fiber | null;
}

interface Counter {
  /** Renders per component function, since the page opened. */
  renders: Map<unknown, number>;
  /** Commits of any root, since the page opened. */
  commits: number;
  /** The component functions under test, once found. */
  probes?: Record<string, unknown>;
}

/** Runs in the page before React loads: the stand-in DevTools hook. */
function installRenderCounter() {
  // React's PerformedWork flag: set on a fiber whose component function ran and whose output was used.
  const PERFORMED_WORK = 1;
  const counter: Counter = { renders: new Map(), commits: 0 };
  (window as unknown as { __renderCounter: Counter }).__renderCounter = counter;
  (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => {},
    onScheduleFiberRoot: () => {},
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
    onCommitFiberRoot: (_renderer: number, root: { current: Fiber }) => {
      counter.commits += 1;
      // As React DevTools walks a commit: a subtree whose child list is the previous one's was not visited;
      // in a visited one every fiber is fresh (a mount, or flags reset before its render or bail-out).
      const stack: [Fiber, Fiber | null][] = [[root.current, root.current.alternate]];
      while (stack.length > 0) {
        const [fiber, previous] = stack.pop()!;
        if (typeof fiber.type === "function" && (previous === null || (fiber.flags & PERFORMED_WORK) !== 0)) {
          counter.renders.set(fiber.type, (counter.renders.get(fiber.type) ?? 0) + 1);
        }
        if (previous !== null && fiber.child === previous.child) continue;
        for (let child = fiber.child; child; child = child.sibling) stack.push([child, child.alternate]);
      }
    },
  };
}

/** Find the component functions that render these DOM nodes (the nearest component above each). */
async function findProbes(page: Page, selectors: Record<string, string>): Promise<void> {
  await page.evaluate((selectors) => {
    const counter = (window as unknown as { __renderCounter: Counter }).__renderCounter;
    counter.probes = {};
    for (const [name, selector] of Object.entries(selectors)) {
      const node = document.querySelector(selector);
      if (!node) throw new Error(`No ${selector}`);
      const key = Object.keys(node).find((k) => k.startsWith("__reactFiber$"));
      if (!key) throw new Error(`${selector} is not rendered by React`);
      let fiber = (node as unknown as Record<string, Fiber | null>)[key];
      while (fiber && typeof fiber.type !== "function") fiber = fiber.return;
      if (!fiber) throw new Error(`No component above ${selector}`);
      counter.probes[name] = fiber.type;
    }
  }, selectors);
}

/** How many times each probed component has rendered so far. */
function renderCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const counter = (window as unknown as { __renderCounter: Counter }).__renderCounter;
    return Object.fromEntries(Object.entries(counter.probes ?? {}).map(([name, type]) => [name, counter.renders.get(type) ?? 0]));
  });
}

/** Wait until React has committed nothing for `quietMs` (the answer's streaming and its after-effects are over). */
async function settle(page: Page, quietMs = 750): Promise<void> {
  let last = -1;
  await expect
    .poll(
      async () => {
        const commits = await page.evaluate(() => (window as unknown as { __renderCounter: Counter }).__renderCounter.commits);
        const quiet = commits === last;
        last = commits;
        return quiet;
      },
      { intervals: [quietMs], timeout: 15_000 },
    )
    .toBe(true);
}

test("typing 20 characters re-renders neither the message list nor the sidebar", async ({ page }) => {
  await page.addInitScript(installRenderCounter);
  await page.goto("/chat");
  await send(page, "What stays put while I type?");
  await expect(page.getByTestId("message-scroller")).toBeVisible();
  await findProbes(page, {
    messageList: '[data-testid="message-scroller"]',
    sidebar: 'aside[aria-label="Chat history"]',
    composer: "#chat-input",
  });
  await settle(page);

  const before = await renderCounts(page);
  const typed = "Typing stays local!!";
  expect(typed).toHaveLength(20);
  await page.getByPlaceholder("Message GPT").pressSequentially(typed);
  await expect(page.getByPlaceholder("Message GPT")).toHaveValue(typed);
  const after = await renderCounts(page);

  const rendered = Object.fromEntries(Object.entries(after).map(([name, n]) => [name, n - (before[name] ?? 0)]));
  // The probe works: the composer rendered once per keystroke at least.
  expect(rendered.composer).toBeGreaterThanOrEqual(typed.length);
  expect({ messageList: rendered.messageList, sidebar: rendered.sidebar }).toEqual({ messageList: 0, sidebar: 0 });
});
