import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { accountDeleted } from "@/lib/server/auth/session";
import { clientKey } from "@/lib/server/client-address";
import { getPlan } from "@/lib/server/plans";
import { audioSecondsLeft, type QuotaSubject } from "@/lib/server/quota";

/**
 * GET /api/audio/seconds (docs/issues.md #52): `{ limit_seconds, remaining_seconds }`, the caller's dictation seconds
 * today (STT_SECONDS_PER_DAY_VISITOR, _FREE, _PRO) on the counter both transcription routes add to, read without
 * counting. A user by their plan, a visitor by their client address, as the transcription routes count them.
 * Statuses: 200; 403 deleted account.
 */
export const GET = route(api.audioSeconds, async ({ request, user }) => {
  if (user?.deleted) throw accountDeleted();
  const subject: QuotaSubject = user ? { kind: "user", userId: user.id, plan: await getPlan(user.id) } : { kind: "visitor", address: clientKey(request) };
  const { limit, remaining } = await audioSecondsLeft(subject);
  return reply(api.audioSeconds, { limit_seconds: limit, remaining_seconds: remaining }, { headers: PRIVATE_NO_STORE });
});
