import { execFileSync } from "node:child_process";

/**
 * The commit a build is made from (docs/verify.md): `HUSH_SOURCE_COMMIT` when set (the
 * Docker build, which has no .git), else `git rev-parse HEAD` in `cwd`, else "unknown". Used as Next's
 * build id, so two builds of one commit name `/_next/static/<build id>/` alike, and written into the
 * build manifest. Returns 40 hex digits or "unknown"; needs no network.
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
