#!/usr/bin/env node
/**
 * One token-counting measurement in a fresh process, for bench/run.mjs. Prints one JSON line.
 *
 *   node bench/tokens-worker.mjs '{"impl":"pi"|"arbor","file":"...","piDir":"...","repeats":20}'
 *
 * Opens the session and builds the projection of its leaf and the leaf's branch (not timed), then:
 * - usage-aware estimate: `estimateProjectedContextTokens(projection, branch)` (pi's deep import /
 *   @arbor/compaction), the first call and the median of `repeats` further calls;
 * - exact count (Arbor only: pi has no exact counter): a js-tiktoken `o200k_base` counter
 *   (@arbor/compaction/tiktoken) over every projected message, the first pass (tokenizer load
 *   included, reported apart) and the median of repeated passes (per-message cache).
 */
import { pathToFileURL } from "node:url";

const args = JSON.parse(process.argv[2] ?? "{}");
const repeats = args.repeats ?? 20;
const root = new URL("..", import.meta.url);
const now = () => performance.now();
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function timeRepeated(fn) {
  const t0 = now();
  const value = fn();
  const first = now() - t0;
  const times = [];
  for (let i = 0; i < repeats; i++) {
    const t = now();
    fn();
    times.push(now() - t);
  }
  return { value, first, repeat: median(times) };
}

async function loadSession() {
  if (args.impl === "pi") {
    const base = `${args.piDir}/node_modules/@earendil-works/pi-coding-agent/dist/core`;
    const { SessionManager } = await import(pathToFileURL(`${base}/session-manager.js`).href);
    const { estimateProjectedContextTokens } = await import(
      pathToFileURL(`${base}/compaction/index.js`).href
    );
    const sm = SessionManager.open(args.file);
    return {
      projection: sm.buildSessionProjection(),
      branch: sm.getBranch(),
      estimate: estimateProjectedContextTokens,
    };
  }
  const store = await import(new URL("packages/session-store/dist/index.js", root).href);
  const compaction = await import(new URL("packages/compaction/dist/index.js", root).href);
  const session = store.openSessionStore(args.file, { storage: { readOnly: true } });
  return {
    projection: session.getProjection(),
    branch: session.getBranch(),
    estimate: compaction.estimateProjectedContextTokens,
    compaction,
  };
}

const session = await loadSession();
const result = {
  impl: args.impl,
  messages: session.projection.messages.length,
  branchLength: session.branch.length,
};
const estimate = timeRepeated(() => session.estimate(session.projection, session.branch));
result.estimate = { tokens: estimate.value.tokens, firstMs: estimate.first, repeatMs: estimate.repeat };

if (args.impl === "arbor") {
  const { createTiktokenCounter } = await import(
    new URL("packages/compaction/dist/tiktoken/index.js", root).href
  );
  const counter = createTiktokenCounter({ encoding: "o200k_base" });
  const t0 = now();
  counter.countMessage({ role: "user", content: "warm up the tokenizer", timestamp: 0 });
  const loadMs = now() - t0;
  const countAll = () => {
    let total = 0;
    for (const message of session.projection.messages) total += counter.countMessage(message);
    return total;
  };
  const exact = timeRepeated(countAll);
  let estimated = 0;
  for (const message of session.projection.messages) estimated += session.compaction.estimateTokens(message);
  result.exact = {
    tokens: exact.value,
    estimatedTokens: estimated,
    loadMs,
    firstMs: exact.first,
    repeatMs: exact.repeat,
  };
}
result.maxRssMb = Math.round((process.resourceUsage().maxRSS * 1024) / 1e5) / 10;
process.stdout.write(`${JSON.stringify(result)}\n`);
