import { mkdirSync, readFileSync } from "node:fs";
import { expect, test, type Request } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";
import { send } from "./helpers/chat";
import { filesUnder, leaks } from "./helpers/leaks";
import { LOCAL, sidebarOf, signInOnLocalhost, turnOnHistoryWithPassphrase } from "./helpers/vault";

/**
 * Project knowledge (docs/issues.md #41) in Chromium against the production build: a 400 KB text file added to a
 * project is read, split and sealed in the browser; a question about one paragraph sends that paragraph to the model
 * (the fake OpenAI-compatible server records what it receives) in a request under 60 KB, and the answer lists the
 * file as a source. A paragraph of the file unrelated to the question is in no request, no API answer and no
 * database file.
 */
const LLM = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;
const SHOTS = process.env.SHOTS_DIR ?? "test-results/screens";
const PASSPHRASE = "project files stay sealed";
const FILE_NAME = "harbour-notes.txt";

interface Received {
  messages: { role: string; content: string }[];
}

/** About 400 KB of dull paragraphs; `secret` in an early one, `fact` in one near the middle. */
function bigFile(secret: string, fact: string): string {
  const topics = ["budgets", "rooms", "schedules", "printers", "parking", "catering", "badges", "furniture"];
  const paragraphs: string[] = [];
  for (let i = 0; paragraphs.join("\n\n").length < 400_000; i++) {
    const t = topics[i % topics.length]!;
    paragraphs.push(`Minute ${i}: the committee reviewed routine matters about ${t}, agreed to revisit ${t} next month, and closed item ${i} without further comment.`);
  }
  paragraphs[12] = `Internal reference ${secret} for the archive shelf, never to be quoted.`;
  paragraphs[Math.floor(paragraphs.length / 2)] = fact;
  return paragraphs.join("\n\n");
}

test("a project's 400 KB file: the paragraph asked about reaches the model within 60 KB and is listed as a source; the file is sealed", async ({ page }) => {
  test.slow();
  const seen: Request[] = [];
  const answers: { url: string; body: Buffer }[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).origin === LOCAL) seen.push(r);
  });
  page.on("response", (r) => {
    if (new URL(r.url()).origin !== LOCAL || !new URL(r.url()).pathname.startsWith("/api/")) return;
    void r.body().then(
      (body) => answers.push({ url: r.url(), body }),
      () => undefined,
    );
  });

  const tag = Math.random().toString(36).slice(2, 10).toUpperCase();
  const secret = `ARCHIVECANARY${tag}`;
  const fact = `The lighthouse keeper of Saltmere harbour is Marguerite Oyelaran, who rings the fog bell at dusk. Code ${tag}.`;
  const text = bigFile(secret, fact);
  expect(text.length).toBeGreaterThanOrEqual(400_000);

  await signInOnLocalhost(page, `project-files-${Date.now()}@example.com`);
  await turnOnHistoryWithPassphrase(page, PASSPHRASE);
  const projects = sidebarOf(page).getByRole("region", { name: "Projects" });
  const name = `Harbour ${tag}`;
  await projects.getByRole("button", { name: "+ New project" }).click();
  const create = page.getByRole("dialog", { name: "New project" });
  await create.getByLabel("Name").fill(name);
  await create.getByRole("button", { name: "Create project" }).click();
  await expect(create).toBeHidden();

  await projects.getByRole("button", { name: `Files of project ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Files of ${name}` });
  await expect(dialog).toContainText("No files yet.");
  await expect(dialog).toContainText("5 MB on Free and 50 MB on Pro");
  await dialog.getByLabel("Add a file to the project").setInputFiles({ name: FILE_NAME, mimeType: "text/plain", buffer: Buffer.from(text) });
  const list = dialog.getByRole("list", { name: "Project files" });
  await expect(list).toContainText(FILE_NAME, { timeout: 30_000 });
  await expect(dialog.getByTestId("project-files-usage")).toContainText("of 5 MB in this project");
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/project-files-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/project-files-phone.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole("button", { name: "Close" }).click();

  await page.request.delete(`${LLM}/__requests`);
  const question = "Who is the lighthouse keeper at Saltmere harbour";
  await send(page, question);

  // The model got the paragraph, wrapped as a document named by the file and its part, in a request under 60 KB.
  const all = (await (await page.request.get(`${LLM}/__requests`)).json()) as Received[];
  const got = all.find((r) => r.messages.at(-1)?.content.endsWith(question));
  expect(got, "the model received the question").toBeTruthy();
  const last = got!.messages.at(-1)!.content;
  expect(last).toContain(fact);
  expect(last).toMatch(new RegExp(`<document name="${FILE_NAME.replace(".", "\\.")}, part \\d+">`));
  expect(JSON.stringify(got).length).toBeLessThan(60_000);
  const turn = seen.find((r) => new URL(r.url()).pathname === "/api/ns/chat_user");
  expect(turn?.postDataBuffer()?.byteLength ?? Infinity).toBeLessThan(60_000);
  expect(last).not.toContain(secret);

  // The answer lists the file as a source.
  const sources = page.locator('[data-role="assistant"]').last().getByTestId("file-sources");
  await expect(sources).toContainText("Sources");
  await expect(sources).toContainText(FILE_NAME);

  // Server-blind: a paragraph not sent to the model is in no request, no API answer and no database file.
  await page.waitForTimeout(1000);
  expect(seen.some((r) => new URL(r.url()).pathname === "/api/projects/files" && r.method() === "POST")).toBe(true);
  for (const r of seen) {
    expect(leaks(r.url(), secret), r.url()).toBeNull();
    const body = r.postDataBuffer();
    if (body) expect(leaks(body, secret), `${r.method()} ${r.url()}`).toBeNull();
  }
  expect(answers.some((a) => new URL(a.url).pathname.startsWith("/api/projects/files/"))).toBe(true);
  for (const a of answers) expect(leaks(a.body, secret), a.url).toBeNull();
  for (const file of filesUnder(E2E_DATA_DIR)) expect(leaks(readFileSync(file), secret), file).toBeNull();
});
