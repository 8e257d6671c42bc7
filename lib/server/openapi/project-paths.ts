import type { ZodOpenApiPathsObject } from "zod-openapi";
import { z } from "@/lib/shared/zod";
import { created, operation, pathsOf } from "./helpers";
import { api } from "@/lib/shared/api/contract";
import { MAX_PROJECTS } from "@/lib/shared/projects/schemas";

/** The project endpoints. */
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
      summary: "Delete a project and its files; its chats are kept and moved out of it; 404 when not the caller's",
      errors: [404],
    }),
    operation(api.projectMoveChat, {
      operationId: "moveChatToProject",
      tags,
      summary: "Put one of the caller's chats in one of their projects, or take it out (project_id null); 404 when either is not the caller's",
      errors: [404],
    }),
      operation(api.projectFileList, {
      operationId: "listProjectFiles",
      tags,
      summary: "The caller's project files (ids, sealed sizes, times; no ciphertext) and their plan's limits per project (docs/issues.md #41)",
    }),
    operation(api.projectFileCreate, {
      operationId: "createProjectFile",
      tags,
      summary: "A new file in one of the caller's projects, sealed in the browser (name, kind and passages); 404 for a project not the caller's, 409 over the plan's limit per project",
      responses: created(api.projectFileCreate),
      errors: [404, 409],
    }),
    operation(api.projectFileReseal, {
      operationId: "resealProjectFile",
      tags,
      summary: "Replace one of the caller's project files with the same file sealed under a new vault key (key rotation); 404 when not the caller's, 409 when a larger ciphertext would pass the plan's limit per project",
      errors: [404, 409],
    }),
    operation(api.projectFileDelete, {
      operationId: "deleteProjectFile",
      tags,
      summary: "Delete one of the caller's project files; 404 when not the caller's",
      errors: [404],
    }),
    operation(api.projectFileGet, {
      operationId: "getProjectFile",
      tags,
      summary: "One of the caller's project files as its ciphertext; 404 when not the caller's",
      requestParams: { path: z.object({ fileId: z.string().min(1).meta({ description: "The file's id, a lowercase UUID (any other value: 404)" }) }) },
      errors: [404],
    }),
  ]);
}
