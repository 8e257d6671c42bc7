/**
 * The profiles bench/chat-page.mjs writes with BENCH_PROFILE=1: CDP CPU profiles and the stream's Chromium
 * timeline trace, each written to a file in the working folder and summarised on stdout.
 */
import { writeFileSync } from "node:fs";

/**
 * Write a CDP CPU profile (open it in Chrome DevTools' Performance panel) and print its top self-time
 * functions with their source file, so the cost can be traced to an app component.
 */
export function saveProfile(phase, profile) {
  const file = `bench-chat-${phase}.cpuprofile`;
  writeFileSync(file, JSON.stringify(profile));
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const self = new Map();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const where = f.url ? `${f.url.replace(/^.*\/_next\//, "_next/")}:${f.lineNumber + 1}:${f.columnNumber + 1}` : "";
    const k = `${f.functionName || "(anonymous)"} ${where}`;
    self.set(k, (self.get(k) ?? 0) + (dt.get(n.id) ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`profile ${phase} (${file}), top self time of ${(total / 1000).toFixed(0)} ms sampled:`);
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
}

/**
 * Write the stream's Chromium timeline trace (bench-chat-stream.trace.json, for DevTools' Performance
 * panel) and print where the main thread's tasks over 50 ms spent their time: self time per trace event
 * (Layout, UpdateLayoutTree = style, Paint, FunctionCall = JavaScript, ...).
 */
export function summarizeTrace(buffer) {
  writeFileSync("bench-chat-stream.trace.json", buffer);
  const events = JSON.parse(buffer.toString()).traceEvents ?? [];
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain" && events.some((x) => x.pid === e.pid && x.name === "FunctionCall"));
  if (!main) return console.log("trace: no renderer main thread found");
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && typeof e.dur === "number").sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map();
  let tasks = 0;
  let inTasks = 0;
  for (const task of mine.filter((e) => e.name === "RunTask" && e.dur > 50_000)) {
    tasks++;
    inTasks += task.dur;
    const inside = mine.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
    const stack = [{ e: task, child: 0 }];
    const close = (until) => {
      while (stack.length > 1 && stack.at(-1).e.ts + stack.at(-1).e.dur <= until) {
        const { e, child } = stack.pop();
        self.set(e.name, (self.get(e.name) ?? 0) + e.dur - child);
      }
    };
    for (const e of inside) {
      close(e.ts);
      stack.at(-1).child += e.dur;
      stack.push({ e, child: 0 });
    }
    close(Infinity);
    self.set("RunTask (other)", (self.get("RunTask (other)") ?? 0) + task.dur - stack[0].child);
  }
  console.log(`trace (bench-chat-stream.trace.json): ${tasks} main-thread tasks > 50 ms, ${(inTasks / 1000).toFixed(0)} ms; self time in them by event:`);
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 10))
    console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / inTasks).toFixed(1).padStart(5)}%  ${name}`);
}
