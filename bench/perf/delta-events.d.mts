import type { ServerResponse } from "node:http";

/** bench/perf/delta-events.mjs: Hush's delta events on `res`, as lib/server/chat/respond.ts writes them. */
export function deltaEvents(res: ServerResponse): { delta(piece: string): void; end(): void };
