import { api } from "@/lib/api/contract";
import { route } from "@/lib/api/route";
import { respondToTurn } from "@/lib/chat/respond";
import { admitSignedInSend } from "@/lib/chat/signed-in";
import { prepareTurn } from "@/lib/chat/turn";
import { assertAcceptingTurns } from "@/lib/lifecycle";

/**
 * POST /api/ns/chat_user: the signed-in chat call (docs/product.md §7). Like /api/ns/chat, plus: the Pro model for
 * Pro users. It stores nothing: since the vault (docs/issues.md #8) a saved chat's turn is encrypted in the browser
 * and sent to POST /api/ns/chat_save once the answer is complete; `save_chat` is accepted for docs/product.md §7
 * and ignored, and `chat_id` is echoed. A chat_id that is not the caller's answers 404 before the model runs.
 * The Pro model without Pro answers 403; each send counts against the plan's daily quota (429).
 * Session, owner, plan and quota are checked in one database round trip (lib/chat/signed-in.ts), so the
 * wrapper's own auth step is off ("none"); same-origin is checked there too.
 */
export const POST = route(
  api.chatSignedIn,
  {
    name: "chat_user",
    auth: "none",
    sameOrigin: false,
    handlerReadsBody: true,
    // A draining instance (SIGTERM) refuses new turns before anything is counted (lib/lifecycle.ts).
    before: assertAcceptingTurns,
  },
  async ({ request }) => {
    const { body, model } = await admitSignedInSend(request);
    const turn = prepareTurn(body, model);
    return respondToTurn(request, turn, body.chat_id ?? null);
  },
);
