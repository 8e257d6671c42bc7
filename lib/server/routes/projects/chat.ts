import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { moveChatToProject } from "@/lib/server/db/projects";

/**
 * PATCH /api/projects/chat `{ chat_id, project_id }`: put one of the caller's saved chats in
 * one of their projects, or take it out (project_id null). 404 when the chat or the project is not the caller's.
 */
export const PATCH = route(api.projectMoveChat, async ({ user, body }) => {
  await moveChatToProject({ userId: user.id, chatId: body.chat_id, projectId: body.project_id });
  return reply(api.projectMoveChat, { ok: true });
});
