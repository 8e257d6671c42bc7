/**
 * The fake SearXNG of the tests: the development stand-in (dev/searxng.ts), which answers SearXNG's JSON API from a
 * fixed local corpus and records every query it receives. Run as a script (a Playwright webServer):
 * `npx tsx tests/helpers/fake-searxng.ts --port 4060`.
 */
export { SEARCH_CORPUS, searchCorpus, startFakeSearxng, type FakeSearxng } from "../../dev/searxng";

if (process.argv[1]?.endsWith("fake-searxng.ts")) {
  const i = process.argv.indexOf("--port");
  const port = i >= 0 ? Number(process.argv[i + 1]) : 4060;
  void import("../../dev/searxng").then(async ({ startFakeSearxng }) => {
    const engine = await startFakeSearxng({ port });
    console.log(`fake SearXNG on ${engine.url}`);
  });
}
