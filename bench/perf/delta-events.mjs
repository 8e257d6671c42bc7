/**
 * Hush's delta events written to a node:http response as lib/server/chat/respond.ts writes them: the first piece at
 * once, then the pieces of each event-loop turn together, `event: done` at the end. For the rungs of
 * bench/perf/ladder.ts (bench/perf/translating-proxy.mjs, bench/perf/llm-layer-proxy.ts).
 * @param {import("node:http").ServerResponse} res
 * @returns {{ delta(piece: string): void, end(): void }}
 */
export function deltaEvents(res) {
  const event = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  let pending = "";
  let queued = false;
  let first = true;
  const flush = () => {
    queued = false;
    if (!pending) return;
    if (!res.headersSent) res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
    res.write(event("delta", { text: pending }));
    pending = "";
  };
  return {
    delta(piece) {
      pending += piece;
      if (first) {
        first = false;
        flush();
      } else if (!queued) {
        queued = true;
        setImmediate(flush);
      }
    },
    end() {
      flush();
      res.end(event("done", {}));
    },
  };
}
