import type { ZodOpenApiPathsObject } from "zod-openapi";
import { errors, jsonBody, ok, SIGNED_IN } from "./helpers";
import { api } from "@/lib/shared/api/contract";
import { MAX_PROJECTS } from "@/lib/shared/projects/schemas";

/**
 * The project endpoints for the OpenAPI document; schemas and body limits from the API
 * contract (lib/shared/api/contract.ts).
 */
export function projectPaths(): ZodOpenApiPathsObject {
  const common = { tags: ["projects"], security: SIGNED_IN };
  return {
    "/api/projects": {
      get: {
        ...common,
        operationId: "listProjects",
        summary: "The caller's projects, oldest first (names and instructions sealed in the browser under the vault key), and which chats are in one",
        responses: { ...ok(api.projectList.response), ...errors(401, 403, 503) },
      },
      post: {
        ...common,
        operationId: "createProject",
        summary: `A new project under the id the browser chose and sealed into it; 409 without a vault, at ${MAX_PROJECTS} projects, or for an id the caller already holds`,
        "x-max-body-bytes": api.projectCreate.maxBytes,
        requestBody: jsonBody(api.projectCreate.body, api.projectCreate.maxBytes),
        responses: {
          "201": { description: "Created.", content: { "application/json": { schema: api.projectCreate.response } } },
          ...errors(400, 401, 403, 409, 413, 415, 503),
        },
      },
      patch: {
        ...common,
        operationId: "updateProject",
        summary: "Replace a project's sealed name and instructions; 404 when not the caller's",
        "x-max-body-bytes": api.projectUpdate.maxBytes,
        requestBody: jsonBody(api.projectUpdate.body, api.projectUpdate.maxBytes),
        responses: { ...ok(api.projectUpdate.response), ...errors(400, 401, 403, 404, 413, 415, 503) },
      },
      delete: {
        ...common,
        operationId: "deleteProject",
        summary: "Delete a project; its chats are kept and moved out of it; 404 when not the caller's",
        "x-max-body-bytes": api.projectDelete.maxBytes,
        requestBody: jsonBody(api.projectDelete.body, api.projectDelete.maxBytes),
        responses: { ...ok(api.projectDelete.response), ...errors(400, 401, 403, 404, 413, 415, 503) },
      },
    },
    "/api/projects/chat": {
      patch: {
        ...common,
        operationId: "moveChatToProject",
        summary: "Put one of the caller's chats in one of their projects, or take it out (project_id null); 404 when either is not the caller's",
        "x-max-body-bytes": api.projectMoveChat.maxBytes,
        requestBody: jsonBody(api.projectMoveChat.body, api.projectMoveChat.maxBytes),
        responses: { ...ok(api.projectMoveChat.response), ...errors(400, 401, 403, 404, 413, 415, 503) },
      },
    },
  };
}
