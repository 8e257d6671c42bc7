/**
 * The day's dictation seconds left, as the server counts them (GET /api/audio/seconds, docs/issues.md #52), so a page
 * loaded after they are used up says so from the start instead of at its first refused recording.
 */
import { apiFetch } from "@/lib/browser/api/client";

/**
 * True when none of today's dictation seconds are left; false when some are, or when the server could not be asked
 * (offline: the first recording's answer says it then).
 */
export async function dictationUsedUp(signal?: AbortSignal): Promise<boolean> {
  try {
    const seconds = await apiFetch("audioSeconds", { signal });
    return seconds.remaining_seconds <= 0;
  } catch {
    return false;
  }
}
