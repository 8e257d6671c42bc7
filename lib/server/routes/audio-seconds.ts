import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { accountDeleted } from "@/lib/server/auth/session";
import { clientKey } from "@/lib/server/client-address";
import { getPlan } from "@/lib/server/plans";
import { audioSecondsLeft, type QuotaSubject } from "@/lib/server/quota";

/** GET /api/audio/seconds: today's dictation seconds, `{ limit_seconds, remaining_seconds }`; 403 deleted account. */
export const GET = route(api.audioSeconds, async ({ request, user }) => {
  if (user?.deleted) throw accountDeleted();
  const subject: QuotaSubject = user ? { kind: "user", userId: user.id, plan: await getPlan(user.id) } : { kind: "visitor", address: clientKey(request) };
  const { limit, remaining } = await audioSecondsLeft(subject);
  return reply(api.audioSeconds, { limit_seconds: limit, remaining_seconds: remaining }, { headers: PRIVATE_NO_STORE });
});
