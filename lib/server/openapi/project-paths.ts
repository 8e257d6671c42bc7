import type { ZodOpenApiPathsObject } from "zod-openapi";
import { created, operation, pathsOf } from "./helpers";
import { api } from "@/lib/shared/api/contract";
import { MAX_PROJECTS } from "@/lib/shared/projects/schemas";

/** The project endpoints for the OpenAPI document, each from its contract entry (lib/shared/api/contract.ts). */
export function projectPaths(): ZodOpenApiPathsObject {
  const tags = ["projects"];
  return pathsOf([
    operation(api.projectList, {
      operationId: "listProjects",
      tags,
      summary: "The caller's projects, oldest first (names and instructions sealed in the browser under the vault key), and which chats are in one",
    }),
    operation(api.projectCreate, {
      operationId: "createProject",
      tags,
      summary: `A new project under the id the browser chose and sealed into it; 409 without a vault, at ${MAX_PROJECTS} projects, or for an id the caller already holds`,
      responses: created(api.projectCreate),
      errors: [409],
    }),
    operation(api.projectUpdate, {
      operationId: "updateProject",
      tags,
      summary: "Replace a project's sealed name and instructions; 404 when not the caller's",
      errors: [404],
    }),
    operation(api.projectDelete, {
      operationId: "deleteProject",
      tags,
      summary: "Delete a project; its chats are kept and moved out of it; 404 when not the caller's",
      errors: [404],
    }),
    operation(api.projectMoveChat, {
      operationId: "moveChatToProject",
      tags,
      summary: "Put one of the caller's chats in one of their projects, or take it out (project_id null); 404 when either is not the caller's",
      errors: [404],
    }),
  ]);
}
