#!/usr/bin/env node
/**
 * One measurement in a fresh process, for bench/session-store.bench.mjs. Prints one JSON line.
 *
 *   node bench/session-store-worker.mjs '{"impl":"pi"|"arbor","task":"open"|"append"|"reopen","file":"...",...}'
 *
 * Tasks:
 * - open:   open the session + build the projection of the current leaf (pi: SessionManager.open +
 *           buildSessionProjection; Arbor: openSessionStore + getProjection). Arbor opts in to its
 *           sidecar index (`<file>.idx`); `cold: true` runs without one (the library default).
 * - reopen: the same, timed on a file that already has an Arbor sidecar index and grew since.
 * - append: open, then `count` times append one message + rebuild the projection (a live agent's
 *           refresh), then `count` plain appends (`appendOnly`), then the same heap warm-up for both
 *           (see `warmYoungGeneration`) and `count` more plain appends (`appendOnlyWarm`); per-entry
 *           times, and the minor page faults of each plain phase.
 * Arbor options: `cold` (no sidecar index), `readOnly` (open without the writer lock), `durability`
 * ("never" | "batched" | "always"; default "batched", which fsyncs at most once a second).
 */
import { pathToFileURL } from "node:url";

const args = JSON.parse(process.argv[2] ?? "{}");
const now = () => performance.now();
const mb = (bytes) => Math.round((bytes / 1e6) * 10) / 10;

async function loadImpl() {
  if (args.impl === "pi") {
    const base = `${args.piDir}/node_modules/@earendil-works/pi-coding-agent/dist/core`;
    const { SessionManager } = await import(pathToFileURL(`${base}/session-manager.js`).href);
    return {
      open: () => SessionManager.open(args.file),
      project: (sm) => sm.buildSessionProjection(),
      append: (sm, message) => sm.appendMessage(message),
      close: () => {},
      stats: () => undefined,
    };
  }
  const mod = await import(pathToFileURL(`${args.arborDist}/index.js`).href);
  if (typeof mod.openSessionStore !== "function")
    throw new Error("@arbor/session-store has no openSessionStore (build it first)");
  // The sidecar index is opt-in: the warm runs ask for it beside the file, cold runs have none.
  // `readOnly` (no writer lock, which pi does not take) and `durability` measure what a guarantee costs.
  const storage = {
    ...(args.cold ? {} : { sidecarIndex: true }),
    ...(args.readOnly ? { readOnly: true } : {}),
    ...(args.durability ? { durability: args.durability } : {}),
  };
  return {
    open: () => mod.openSessionStore(args.file, { storage }),
    project: (store) => store.getProjection(),
    append: (store, message) => store.appendMessage(message),
    close: (store) => store.close(),
    stats: (store) => (typeof store.storage?.stats === "function" ? store.storage.stats() : undefined),
  };
}

function sampleMessage(i) {
  if (i % 3 === 0)
    return {
      role: "user",
      content: `Next step ${i}: please check the failing test in src/session.ts and explain.`,
      timestamp: Date.now(),
    };
  if (i % 3 === 1) {
    return {
      role: "assistant",
      content: [
        { type: "text", text: `Looking at it (${i}).` },
        { type: "toolCall", id: `call_${i}`, name: "read", arguments: { path: "src/session.ts" } },
      ],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: {
        input: 1000,
        output: 50,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 1050,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "toolUse",
      timestamp: Date.now(),
    };
  }
  return {
    role: "toolResult",
    toolCallId: `call_${i - 1}`,
    toolName: "read",
    content: [{ type: "text", text: "export const x = 1;\n".repeat(60) }],
    isError: false,
    timestamp: Date.now(),
  };
}

/**
 * Allocates and drops ~64 MB of small objects, the same for pi and Arbor. A fresh process's young
 * generation has pages never touched yet; the first allocations there take a page fault each (seen
 * here: 1.5 to 12 µs). pi's refresh phase allocates megabytes (it rebuilds the projection from every
 * entry), Arbor's almost nothing, so without this the plain appends that follow compare pi's warm heap
 * with Arbor's cold one: the first plain phase shows that, the second compares the appends alone, as
 * in an agent whose heap is warm from everything else it does (streaming, parsing, tools).
 */
function warmYoungGeneration() {
  let sink = 0;
  for (let i = 0; i < 1_000_000; i++) {
    const item = { index: i, label: `item ${i}` };
    sink += item.label.length;
  }
  return sink;
}

function summarize(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    median: at(0.5),
    p95: at(0.95),
    max: sorted[sorted.length - 1],
    mean: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

const impl = await loadImpl();
const result = { impl: args.impl, task: args.task };
const cpu0 = process.cpuUsage();
const t0 = now();
const session = impl.open();
const t1 = now();
const projection = impl.project(session);
const t2 = now();
result.openMs = t1 - t0;
result.projectionMs = t2 - t1;
result.totalMs = t2 - t0;
const cpu = process.cpuUsage(cpu0);
result.cpuMs = (cpu.user + cpu.system) / 1000;
result.projectedMessages = projection.messages.length;
const mem = process.memoryUsage();
result.rssAfterMb = mb(mem.rss);
result.heapAfterMb = mb(mem.heapUsed);
result.stats = impl.stats(session);

if (args.task === "append") {
  const refresh = [];
  for (let i = 0; i < args.count; i++) {
    const s = now();
    impl.append(session, sampleMessage(i));
    impl.project(session);
    refresh.push(now() - s);
  }
  const plainPhase = (first) => {
    const times = [];
    const faults = process.resourceUsage().minorPageFault;
    for (let i = first; i < first + args.count; i++) {
      const s = now();
      impl.append(session, sampleMessage(i));
      times.push(now() - s);
    }
    return { ...summarize(times), faults: process.resourceUsage().minorPageFault - faults };
  };
  result.appendRefresh = summarize(refresh);
  result.appendOnly = plainPhase(args.count);
  result.warmUp = warmYoungGeneration();
  result.appendOnlyWarm = plainPhase(2 * args.count);
}
impl.close(session);
result.maxRssMb = mb(process.resourceUsage().maxRSS * 1024);
process.stdout.write(`${JSON.stringify(result)}\n`);
