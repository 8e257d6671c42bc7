/**
 * Chat search speed (docs/issues.md #9 History: "fast on 1,000 chats"): the in-browser index of lib/browser/chat/search.ts
 * over N synthetic chats of ~10 messages each, as the sidebar's search builds it after decrypting.
 *
 * Measures, in Node (same minisearch and WebCrypto code the browser runs):
 * - decrypting the N chats as openChat does (AES-GCM under the vault key, per message and title);
 * - checking the N chats' integrity as the search worker does (verifyChat: header, hash chain), with
 *   WebCrypto's SHA-256 and with the synchronous one (lib/browser/vault/sha256-sync.ts), interleaved, 3 rounds
 *   (docs/issues.md #24);
 * - building the index over them (all chats added);
 * - queries as one types them (a 2-letter prefix, a common word, a rare word only in one message body,
 *   two words, a typo), each returning the top 20 hits with their highlighted snippets: median and p95
 *   of RUNS runs;
 * - updating the index after a saved turn (replace one chat) and a deletion.
 *
 * Run: `npx tsx bench/search.ts [N=1000] [MESSAGES=10]`
 */
import { performance } from "node:perf_hooks";
import { ChatSearchIndex, type SearchableChat } from "../lib/browser/chat/search";
import { generateVaultKey, importVaultKey, integrityKey } from "../lib/browser/vault/crypto";
import { sealHeader, stateAfterWrite, verifyChat } from "../lib/browser/vault/integrity";
import { loadSyncSha256 } from "../lib/browser/vault/sha256-sync";
import { openChat, sealTurn, type SealedChatJson } from "../lib/browser/vault/seal";

const N = Number(process.argv[2] ?? 1000);
const MESSAGES = Number(process.argv[3] ?? 10);
const RUNS = 50;

const WORDS = (
  "the of and to in is that for it as with was on be by at this are from or have an they which one you were all we her she there would " +
  "their will when who him been has more if no out so said what up its about than into them can only other new some could time these two " +
  "may then do first any my now such like our over man me even most made after also did many before must through back years where much your " +
  "way well down should because each just those people how too little state good very make world still own see men work long get here between " +
  "both life being under never day same another know while last might us great old year off come since against go came right used take three " +
  "function react server database query index encryption key vault message answer model token stream render component layout button sidebar " +
  "garden recipe travel budget invoice contract meeting schedule holiday lisbon tokyo berlin harbour mountain river coffee bread cheese"
).split(" ");

/** A deterministic pseudo-random generator (mulberry32), so runs compare. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = rng(42);
const pick = () => WORDS[Math.floor(rand() * WORDS.length)]!;
const sentence = (n: number) => Array.from({ length: n }, pick).join(" ") + ".";

function syntheticChat(i: number): { chatId: string; title: string; messages: { role: "user" | "assistant"; content: string }[] } {
  const messages = Array.from({ length: MESSAGES }, (_, m) => ({
    role: (m % 2 === 0 ? "user" : "assistant") as "user" | "assistant",
    // Questions of 10–40 words, answers of 60–300 words, in sentences.
    content: Array.from({ length: m % 2 === 0 ? 1 + Math.floor(rand() * 3) : 4 + Math.floor(rand() * 16) }, () => sentence(8 + Math.floor(rand() * 12))).join(" "),
  }));
  // One rare word, in the body of one message of one chat only.
  if (i === Math.floor(N / 2)) messages[3]!.content += " The quokka was the answer.";
  return { chatId: crypto.randomUUID(), title: messages[0]!.content.slice(0, 60), messages };
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { median: q(0.5), p95: q(0.95), max: s.at(-1)! };
}

const ms = (x: number) => `${x.toFixed(2)} ms`;

async function main() {
  const raw = generateVaultKey();
  const key = await importVaultKey(raw);
  const userId = "bench-user";
  const chats = Array.from({ length: N }, (_, i) => syntheticChat(i));
  const chars = chats.reduce((sum, c) => sum + c.messages.reduce((s, m) => s + m.content.length, 0), 0);
  console.log(`${N} chats × ${MESSAGES} messages, ${(chars / 1e6).toFixed(1)} M characters of text`);

  // Seal them as the browser stores them, then time opening them as the search does.
  const sealed: SealedChatJson[] = await Promise.all(
    chats.map(async (c) => {
      const body = await sealTurn({ key, userId, chatId: c.chatId, create: true, firstPosition: 0, messages: c.messages, title: c.title });
      return {
        chat_id: c.chatId,
        display_name_ciphertext: body.title_ciphertext,
        last_updated: new Date().toISOString(),
        messages: body.messages.map((m, position) => ({ role: m.role, position, content_ciphertext: m.content_ciphertext, attachment_ciphertext: null })),
      };
    }),
  );
  let t = performance.now();
  const opened = await Promise.all(sealed.map((s) => openChat(key, userId, s)));
  const decrypt = performance.now() - t;
  console.log(`decrypt all (openChat × ${N}):       ${ms(decrypt)}`);

  // The integrity check, as the search worker runs it on every chat it reads (all chats at once).
  const iKey = await integrityKey(raw);
  const checked = await Promise.all(
    sealed.map(async (c) => {
      const state = await stateAfterWrite(c.chat_id, null, { from: 0, messages: c.messages, title_ciphertext: c.display_name_ciphertext, tree_ciphertext: null });
      return { ...c, tree_ciphertext: null, version: state.version, header_ciphertext: await sealHeader(iKey, userId, c.chat_id, state) };
    }),
  );
  const sync = (await loadSyncSha256())!;
  const verifyAll = async (sha?: typeof sync) => {
    const t0 = performance.now();
    const results = await Promise.all(checked.map((c) => verifyChat(iKey, userId, c, { seen: 0, manifest: c.version }, sha)));
    if (results.some((r) => r.problem)) throw new Error("a chat failed its check");
    return performance.now() - t0;
  };
  const webcrypto: number[] = [];
  const wasm: number[] = [];
  for (let r = 0; r < 3; r++) {
    if (r % 2 === 0) {
      webcrypto.push(await verifyAll());
      wasm.push(await verifyAll(sync));
    } else {
      wasm.push(await verifyAll(sync));
      webcrypto.push(await verifyAll());
    }
  }
  const med = (xs: number[]) => stats(xs).median;
  console.log(
    `verify all (verifyChat × ${N}), median of 3: WebCrypto SHA-256 ${ms(med(webcrypto))} (${webcrypto.map((x) => x.toFixed(0)).join(", ")}), ` +
      `sync SHA-256 ${ms(med(wasm))} (${wasm.map((x) => x.toFixed(0)).join(", ")})`,
  );

  const docs: SearchableChat[] = opened.map((o) => ({ chat_id: o.chatId, title: o.title, messages: o.messages.map((m) => m.content), last_updated: new Date().toISOString() }));
  const builds: number[] = [];
  let index = new ChatSearchIndex();
  for (let r = 0; r < 5; r++) {
    index = new ChatSearchIndex();
    t = performance.now();
    for (const d of docs) index.upsert(d);
    builds.push(performance.now() - t);
  }
  console.log(`build index (${N} chats), median of 5: ${ms(stats(builds).median)}`);
  const heap = process.memoryUsage().heapUsed / 1e6;
  console.log(`heap used with the index:           ${heap.toFixed(0)} MB`);

  const queries = ["mo", "coffee", "quokka", "lisbon harbour", "encrpytion", "the"];
  for (const q of queries) {
    const times: number[] = [];
    let hits = 0;
    for (let r = 0; r < RUNS; r++) {
      t = performance.now();
      hits = index.search(q, { limit: 20 }).length;
      times.push(performance.now() - t);
    }
    const s = stats(times);
    console.log(`query ${JSON.stringify(q).padEnd(18)} top ${String(hits).padStart(2)}: median ${ms(s.median)}, p95 ${ms(s.p95)}, max ${ms(s.max)}`);
  }
  const rare = index.search("quokka");
  console.log(`  "quokka" found ${rare.length} chat(s); snippet: ${rare[0]?.snippet?.map((x) => (x.match ? `[${x.text}]` : x.text)).join("")}`);

  const updates: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const d = docs[r % docs.length]!;
    t = performance.now();
    index.upsert({ ...d, messages: [...d.messages, "One more saved turn about gardens."] });
    updates.push(performance.now() - t);
  }
  console.log(`update one chat (saved turn):       median ${ms(stats(updates).median)}, p95 ${ms(stats(updates).p95)}`);
  t = performance.now();
  index.remove(docs[0]!.chat_id);
  console.log(`remove one chat:                    ${ms(performance.now() - t)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
