/**
 * The development enclave (dev/enclave.ts) as bench/perf/run.ts's confidential upstream
 * (docs/issues.md #24): no pause between chunks, and the fake model's answer ("Hello" then " tok" × 63),
 * so every millisecond measured downstream belongs to the relay or the proxy under test. Encryption of
 * the answer is the enclave's real EHBP code. Run with `node --import tsx bench/perf/enclave.ts --port N`.
 */
import { startDevEnclave } from "@/dev/enclave";

const i = process.argv.indexOf("--port");
const port = Number(i >= 0 ? process.argv[i + 1] : 5857);
const answer = "Hello" + " tok".repeat(63);

void startDevEnclave({ port, chunkDelayMs: 0, answer: () => answer }).then((enclave) => {
  console.log(`bench enclave on ${enclave.url}`);
  const stop = () => void enclave.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
});
