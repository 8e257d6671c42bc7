import { apiFetch } from "@/lib/browser/api/client";

/** False also when the server could not be asked: the first recording's answer says it then. */
export async function dictationUsedUp(signal?: AbortSignal): Promise<boolean> {
  try {
    const seconds = await apiFetch("audioSeconds", { signal });
    return seconds.remaining_seconds <= 0;
  } catch {
    return false;
  }
}
