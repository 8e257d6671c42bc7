import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { moveChatToProject } from "@/lib/server/db/projects";

/** PATCH /api/projects/chat: move a saved chat into a project, or out (null); 404 when either is not the caller's. */
export const PATCH = route(api.projectMoveChat, async ({ user, body }) => {
  await moveChatToProject({ userId: user.id, chatId: body.chat_id, projectId: body.project_id });
  return reply(api.projectMoveChat, { ok: true });
});
