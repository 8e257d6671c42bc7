/**
 * The processes of bench/transcription.ts: children started in their own process groups (stopped together),
 * a wait for a URL to answer, and the two app instances' settings (standard on the fake provider's transcription
 * API, confidential on the development enclave), and its inputs: the spoken WAV, the page script, the enclave's multipart.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

const children: ChildProcess[] = [];
let stopping = false;

export function start(command: string, argv: string[], env: Record<string, string>, label: string): void {
  const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  children.push(child);
  let tail = "";
  const keep = (d: Buffer) => (tail = (tail + d.toString()).slice(-2000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  child.on("exit", (code) => {
    if (code && !stopping) console.error(`${label} exited with ${code}:\n${tail}`);
  });
}

export function stopAll(): void {
  stopping = true;
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM"); // the process group: npx and its node child
    } catch {
      // already gone
    }
  }
}

export async function waitFor(url: string, timeoutMs = 180_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

export function appEnv(port: number, dataDir: string, confidential: boolean, peers: { llmPort: number; enclavePort: number }): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    ENCRYPTION_MASTER_KEY: "dGVzdC1rZXktZm9yLWUyZS1vbmx5LTMyLWJ5dGVzISE=",
    LLM_BASE_URL: `http://127.0.0.1:${peers.llmPort}/v1`,
    LLM_API_KEY: "test",
    DATABASE_URL: "",
    REDIS_URL: "",
    NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef0123456789",
    QUOTA_VISITOR_PER_DAY: "10000000",
    STT_SECONDS_PER_DAY_VISITOR: "10000000",
    LOG_LEVEL: "warn",
  };
  if (confidential) {
    Object.assign(env, {
      CONFIDENTIAL_BASE_URL: `http://127.0.0.1:${peers.enclavePort}`,
      CONFIDENTIAL_API_KEY: "bench-enclave-key",
      CONFIDENTIAL_MODELS: "llama3-8b-8192,llama3-70b-8192",
      CONFIDENTIAL_MODEL_BASIC: "hush-dev-basic",
      CONFIDENTIAL_MODEL_PRO: "hush-dev-pro",
      CONFIDENTIAL_TRUST: "development",
      CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION: "1",
    });
  } else {
    Object.assign(env, { STT_PROVIDER: "groq", STT_BASE_URL: `http://127.0.0.1:${peers.llmPort}`, STT_API_KEY: "test" });
  }
  return env;
}

/** A WAV of espeak-ng reading a paragraph (about 30 s), which the fake microphone plays in a loop. */
export function makeWav(wav: string): void {
  mkdirSync(path.dirname(wav), { recursive: true });
  const text =
    "This is a dictated message for the transcription benchmark. Hush sends a standard model's recording through its " +
    "server to the provider, and encrypts a confidential model's recording in the browser to the enclave. Nothing of " +
    "the audio is kept, logged or stored. The benchmark measures the time from the end of the recording to the " +
    "transcript in the composer, against a bare upload of the same bytes to the same transcriber.";
  execFileSync("espeak-ng", ["-s", "150", "-w", wav, text], { stdio: "ignore" });
}

/** bench/transcription-browser.ts bundled for the page. */
export async function bundle(): Promise<string> {
  const esbuild = await import("esbuild");
  const built = await esbuild.build({
    entryPoints: [path.join(ROOT, "bench/transcription-browser.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    tsconfig: path.join(ROOT, "tsconfig.json"),
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
    external: ["zlib", "node:zlib", "crypto", "node:crypto"],
  });
  return built.outputFiles[0]!.text;
}

/** The multipart body Hush's page encrypts for the enclave (lib/browser/voice/confidential.ts), built the same way. */
export async function enclaveMultipart(bytes: Buffer, type: string): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type }), "recording.webm");
  form.set("model", "whisper-large-v3-turbo");
  form.set("response_format", "json");
  const request = new Request("https://multipart.invalid/", { method: "POST", body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get("content-type")! };
}
