import { execFileSync } from "node:child_process";

/**
 * The build's commit (docs/verify.md): HUSH_SOURCE_COMMIT, else `git rev-parse HEAD`, else "unknown". Next's build id.
 * @throws Error when HUSH_SOURCE_COMMIT is set but is not a full 40-digit commit hash.
 */
export function sourceCommit(cwd: string = process.cwd()): string {
  const fromEnv = process.env.HUSH_SOURCE_COMMIT?.trim();
  if (fromEnv) {
    if (!/^[0-9a-f]{40}$/i.test(fromEnv)) throw new Error("HUSH_SOURCE_COMMIT must be a full 40-digit commit hash.");
    return fromEnv.toLowerCase();
  }
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "unknown";
  }
}
