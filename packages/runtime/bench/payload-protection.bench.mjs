#!/usr/bin/env node
/**
 * How to hand extension handlers payloads they cannot corrupt: measured on a realistic context.
 *
 *   node packages/runtime/bench/payload-protection.bench.mjs [--messages 200] [--handlers 3] [--reps 200]
 *
 * A context of N messages like a coding session's (user prompts, assistant text with tool calls,
 * tool results of 0.5–4 KB, a few thinking blocks), handed to H handlers:
 * - `clone per handler`: `structuredClone` of the payload for each handler;
 * - `plain copy per handler`: a copy of the plain objects and arrays for each handler, strings
 *   shared (they are immutable);
 * - `clone once + freeze`: one `structuredClone` per dispatch, deep-frozen, shared by the handlers;
 * - `freeze in place`: deep-freeze the runtime's own objects (not viable: the runtime and the
 *   provider's message builder keep mutating some of them; shown for scale).
 * Prints the median time per dispatch of each, in ms, and the payload's JSON size.
 */
import { performance } from "node:perf_hooks";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const messageCount = option("--messages", 200);
const handlers = option("--handlers", 3);
const reps = option("--reps", 200);

function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function text(random, min, max) {
  const words = ["const", "value", "return", "function", "the", "file", "test", "error", "import", "src/"];
  const length = Math.floor(min + random() * (max - min));
  let out = "";
  while (out.length < length) out += `${words[Math.floor(random() * words.length)]} `;
  return out;
}

function realisticContext(count) {
  const random = seeded(42);
  const usage = {
    input: 1200,
    output: 300,
    cacheRead: 9000,
    cacheWrite: 0,
    totalTokens: 10500,
    cost: { input: 0.1, output: 0.2, cacheRead: 0.01, cacheWrite: 0, total: 0.31 },
  };
  const messages = [];
  for (let i = 0; messages.length < count; i++) {
    messages.push({ role: "user", content: [{ type: "text", text: text(random, 40, 400) }], timestamp: i });
    const id = `toolu_${i}`;
    const content = [{ type: "text", text: text(random, 80, 600) }];
    if (i % 5 === 0)
      content.unshift({
        type: "thinking",
        thinking: text(random, 200, 1500),
        thinkingSignature: "sig".repeat(40),
      });
    content.push({
      type: "toolCall",
      id,
      name: "read",
      arguments: { path: `src/file-${i}.ts`, offset: 1, limit: 200 },
    });
    messages.push({
      role: "assistant",
      content,
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      usage,
      stopReason: "toolUse",
      timestamp: i,
    });
    messages.push({
      role: "toolResult",
      toolCallId: id,
      toolName: "read",
      content: [{ type: "text", text: text(random, 500, 4000) }],
      isError: false,
      timestamp: i,
    });
  }
  return messages.slice(0, count);
}

function deepFreeze(value) {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze(value[key]);
  return value;
}

/** Copies plain objects and arrays; strings and other primitives are immutable and shared. */
function copyPlainData(value) {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyPlainData);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy = {};
  for (const key of Object.keys(value)) copy[key] = copyPlainData(value[key]);
  return copy;
}

const noop = (event) => event.messages.length;

const strategies = {
  "clone per handler": (payload) => {
    for (let h = 0; h < handlers; h++) noop(structuredClone(payload));
  },
  "plain copy per handler": (payload) => {
    for (let h = 0; h < handlers; h++) noop(copyPlainData(payload));
  },
  "clone once + freeze": (payload) => {
    const shared = deepFreeze(structuredClone(payload));
    for (let h = 0; h < handlers; h++) noop(shared);
  },
  "freeze in place": (payload) => {
    deepFreeze(payload);
    for (let h = 0; h < handlers; h++) noop(payload);
  },
};

const results = {};
for (const [name, run] of Object.entries(strategies)) {
  const times = [];
  for (let rep = 0; rep < reps; rep++) {
    const payload = { type: "context", messages: realisticContext(messageCount) };
    const start = performance.now();
    run(payload);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  results[name] = Number(times[Math.floor(times.length / 2)].toFixed(3));
}
const size = JSON.stringify(realisticContext(messageCount)).length;
console.log(
  JSON.stringify({ messages: messageCount, handlers, reps, payloadBytes: size, medianMs: results }),
);
