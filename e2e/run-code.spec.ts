import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { E2E_APP_PORT, E2E_CONFIDENTIAL_APP_PORT } from "../playwright.config";

/**
 * "Run code on this device" end to end (docs/issues.md #51 part 2) against the production build: with a CSV attached
 * and "Run code" on, the model (the fake LLM's scripted rule, lib/shared/llm/tools.ts) calls run_code, Python runs
 * in this browser's worker (Pyodide, served from Hush's origin with integrity), and the answer quotes what it
 * printed, with the code and its output in a closed step. An endless loop is stopped at CODE_TIMEOUT_MS while the
 * page stays usable; code that tries the network reaches no server, a local canary's or Hush's; on the confidential
 * path nothing of the code or its output crosses Hush's server in clear.
 */
const SHOTS = process.env.E2E_SHOTS_DIR ?? "test-results/shots-run-code";
const CSV = "a,b\n1,1.5\n2,2.25\n3,10\n";
/** statistics.mean([1.5, 2.25, 10]) as Python prints it. */
const MEAN = "4.583333333333333";
const QUESTION = "What is the mean of column b?";
const answers = (page: Page) => page.locator('[data-role="assistant"]');

/** Open /chat on `port`, attach the CSV and turn "Run code" on. */
async function ready(page: Page, port: number) {
  await page.goto(`http://127.0.0.1:${port}/chat`);
  await page.getByTestId("file-input").setInputFiles({ name: "scores.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await expect(page.getByText("scores.csv").first()).toBeVisible();
  const toggle = page.getByRole("button", { name: "Run code" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
}

/** Send `text` from the composer (fill keeps its newlines; Enter sends). */
async function send(page: Page, text: string) {
  const input = page.getByPlaceholder("Message GPT");
  await input.fill(text);
  await input.press("Enter");
}

test.describe.configure({ mode: "serial" });

// One page for the standard model's runs: Python loads once (about 10 MB to fetch and compile), then stays warm.
let page: Page;
test.beforeAll(async ({ browser }) => {
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
});
test.afterAll(async () => page.close());

test("standard model: the mean of column b is computed on this device, and only the tool result goes back", async () => {
  test.slow(); // Pyodide's first load
  const requests: { method: string; url: string; body: string }[] = [];
  // The context's requests: the page's and its workers'.
  page.context().on("request", (r) => requests.push({ method: r.method(), url: r.url(), body: r.postData() ?? "" }));
  await ready(page, E2E_APP_PORT);
  // Python is not part of /chat: nothing of it is fetched before the first run.
  expect(requests.filter((r) => r.url.includes("/pyodide/"))).toEqual([]);
  await send(page, QUESTION);
  await expect(page.getByText("Running code on this device…")).toBeVisible();
  await expect(answers(page).last()).toContainText(`From the code on your device: The code ran on the user's device. Output: ${MEAN}`, { timeout: 90_000 });

  // The step: closed after the answer, titled with what happened; opened, the program and what it printed.
  const step = answers(page).last().getByTestId("answer-step");
  await expect(step).toHaveCount(1);
  await expect(step).not.toHaveAttribute("open", "");
  await expect(step.locator("summary")).toHaveText("Ran code on this device");
  await step.locator("summary").click();
  await expect(step.getByTestId("step-code")).toContainText('with open("/data/scores.csv", newline="") as f:');
  await expect(step.getByTestId("step-code")).toContainText("print(statistics.mean(values))");
  await expect(step.getByTestId("step-came-back")).toContainText(`Output:\n${MEAN}`);

  // What went to Hush's server: the two requests of the turn (the second carrying the tool result, inside the
  // turn) and GETs of Pyodide's files; nothing else carries the program or its output.
  const chats = requests.filter((r) => r.url.endsWith("/api/ns/chat"));
  expect(chats).toHaveLength(2);
  expect(JSON.parse(chats[0]!.body)).toMatchObject({ tools: ["device_time", "run_code"], continuation: null });
  const result = JSON.parse(chats[1]!.body).continuation.steps[0].results[0];
  expect(result).toMatchObject({ role: "tool", content: `The code ran on the user's device.\n\nOutput:\n${MEAN}\n` });
  const others = requests.filter((r) => !r.url.endsWith("/api/ns/chat"));
  for (const r of others) expect(`${r.url} ${r.body}`).not.toContain(MEAN);
  const python = others.filter((r) => r.url.includes("/pyodide/"));
  expect(python.map((r) => r.method)).toEqual(python.map(() => "GET"));
  expect(python.map((r) => new URL(r.url).pathname.split("/").pop()).sort()).toEqual(["pyodide-lock.json", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide.mjs", "python_stdlib.zip"]);

  for (const [width, name] of [[1280, "desktop"], [390, "phone"]] as const) {
    await page.setViewportSize({ width, height: width > 400 ? 800 : 844 });
    await step.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/run-code-step-${name}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("code trying the network reaches no server: neither a listening canary nor Hush's own", async () => {
  const context = page.context();
  const canary: string[] = [];
  const server = http.createServer((req, res) => {
    canary.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "access-control-allow-origin": "*" }).end("reached");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/canary`;
  const own: string[] = [];
  await context.route("**/__code-canary**", async (route) => {
    own.push(route.request().url());
    await route.fulfill({ status: 204 });
  });
  try {
    const tries = [
      ["js.fetch", `from js import fetch\nawait fetch("${url}")`],
      ["pyfetch", `import pyodide.http\nawait pyodide.http.pyfetch("${url}")`],
      ["urllib", `import urllib.request\nurllib.request.urlopen("${url}")`],
      ["XMLHttpRequest", `from js import XMLHttpRequest\nx = XMLHttpRequest.new()\nx.open("GET", "${url}", False)\nx.send()`],
      ["WebSocket", `from js import WebSocket\nWebSocket.new("${url.replace("http", "ws")}")`],
      ["EventSource", `from js import EventSource\nEventSource.new("${url}")`],
      ["importScripts", `import js\njs.importScripts("${url}")`],
      ["socket", `import socket\nsocket.create_connection(("127.0.0.1", ${(server.address() as AddressInfo).port}))`],
      ["run_js", `import pyodide.code\npyodide.code.run_js('fetch("${url}")')`],
      ["own server", `from js import fetch, location\nawait fetch(location.origin + "/api/__code-canary")`],
      ["loadPackage", `import pyodide_js\nawait pyodide_js.loadPackage("numpy")`],
    ];
    const program = [
      "results = []",
      ...tries.flatMap(([name, code]) => [
        "try:",
        ...code!.split("\n").map((l) => `    ${l}`),
        `    results.append("${name}: reached")`,
        "except BaseException as e:",
        `    results.append("${name}: refused")`,
      ]),
      'print("; ".join(results))',
      "import numpy",
    ].join("\n");
    await send(page, `Run this:\n\`\`\`python\n${program}\n\`\`\``);
    // The fake's answer echoes the question (the program): what the program printed is read in its step.
    const answer = answers(page).last();
    await expect(answer).toContainText("From the code on your device: The code raised an error on the user's device", { timeout: 90_000 });
    const step = answer.getByTestId("answer-step");
    await step.locator("summary").click();
    const cameBack = step.getByTestId("step-came-back");
    await expect(cameBack).toContainText(tries.map(([name]) => `${name}: refused`).join("; "));
    // A package that is not there is said plainly.
    await expect(cameBack).toContainText("ModuleNotFoundError: No module named 'numpy'");
    await expect(cameBack).toContainText('The module "numpy" is not available here: code on this device has Python\'s standard library only');
    await expect(cameBack).not.toContainText("micropip");
    await page.waitForTimeout(500);
    expect(canary, "requests the canary received").toEqual([]);
    expect(own, "requests that reached Hush's server").toEqual([]);
  } finally {
    await context.unroute("**/__code-canary**");
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
});

test("an endless loop is stopped at the time limit while the page stays responsive", async () => {
  test.slow(); // after the loop, a new worker loads Python again
  // Python is warm: the loop's run is timed from its own start.
  await send(page, "compute 6 * 7");
  await expect(answers(page).last()).toContainText("Output: 42", { timeout: 90_000 });
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();

  await send(page, "Run this:\n```python\nwhile True:\n    pass\n```");
  const running = page.getByText("Running code on this device…");
  await expect(running).toBeVisible();
  const started = Date.now();
  // The page answers while the worker spins: the composer takes typing, the toggle's title is read.
  const input = page.getByPlaceholder("Message GPT");
  await input.pressSequentially("still here");
  await expect(input).toHaveValue("still here");
  expect(await page.evaluate(() => 6 * 7)).toBe(42);
  await expect(answers(page).last()).toContainText("The code was stopped after 10 s, the time limit for code on the user's device.", { timeout: 14_000 });
  expect(Date.now() - started, "stopped within 12 s").toBeLessThan(12_000);
  await expect(answers(page).last().getByTestId("answer-step").locator("summary")).toHaveText("Ran code on this device (stopped at the time limit)");
  // A new worker takes the next program.
  await input.fill("compute 2 ** 10");
  await input.press("Enter");
  await expect(answers(page).last()).toContainText("Output: 1024", { timeout: 90_000 });
});

test("Pyodide's files served tampered are refused and never run: the answer says Python could not start", async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: "block" });
  const tab = await context.newPage();
  const ran: string[] = [];
  const tampered: string[] = [];
  await context.route("**/api/__tampered-pyodide-ran*", async (route) => {
    ran.push(route.request().url());
    await route.fulfill({ status: 204 });
  });
  // What a tampered file appends: a request that can only be made if the appended code runs.
  await context.route("**/pyodide/**", async (route) => {
    const response = await route.fetch();
    tampered.push(new URL(route.request().url()).pathname);
    await route.fulfill({ response, body: Buffer.concat([await response.body(), Buffer.from(';fetch("/api/__tampered-pyodide-ran",{method:"POST"});')]) });
  });
  try {
    await ready(tab, E2E_APP_PORT);
    await send(tab, "compute 6 * 7");
    const answer = answers(tab).last();
    await expect(answer).toContainText("Python could not start on the user's device, so the code did not run.", { timeout: 60_000 });
    await expect(answer).toContainText("A tool on this device failed, so this answer does not use its result.");
    await expect(answer.getByTestId("answer-step")).toHaveAttribute("data-failed", "true");
    expect(tampered.length, "Pyodide's files were requested (and served tampered)").toBeGreaterThan(0);
    expect(ran, "tampered code that ran").toEqual([]);
  } finally {
    await context.close();
  }
});

test("confidential model: the same run, and nothing of the code or its output crosses Hush's server in clear", async ({ page: tab }) => {
  test.slow(); // another origin: Python loads again
  const relayed: Buffer[] = [];
  tab.on("request", (r) => {
    if (r.url().endsWith("/api/confidential/chat")) relayed.push(r.postDataBuffer() ?? Buffer.alloc(0));
  });
  await ready(tab, E2E_CONFIDENTIAL_APP_PORT);
  await expect(tab.getByTestId("model-privacy-badge")).toHaveText("Verified (development)");
  await send(tab, QUESTION);
  await expect(answers(tab).last()).toContainText(new RegExp(`Your device answered: The code ran on the user's device\\.\\s*Output:\\s*${MEAN.replace(".", "\\.")}`), { timeout: 90_000 });
  expect(relayed).toHaveLength(2);
  for (const body of relayed) {
    for (const clear of ["run_code", "statistics.mean", MEAN, "scores.csv", "column b"]) expect(body.includes(Buffer.from(clear)), clear).toBe(false);
  }
});
