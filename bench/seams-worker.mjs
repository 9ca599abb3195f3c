#!/usr/bin/env node
/**
 * Per-turn overhead of the agent loop's context seams, in a fresh process, for bench/run.mjs.
 * Prints one JSON line.
 *
 *   node bench/seams-worker.mjs '{"impl":"pi"|"arbor","piDir":"...","messages":1000,"iterations":2000}'
 *
 * The context: the last `messages` messages of the leaf path of a generated session
 * (bench/generate-session.mjs, seed 1), so it holds what real sessions hold (tool calls and
 * results, thinking, images, system patches). One turn is what each loop runs before a request:
 * - Arbor: `transformContext` (identity) → `convertToLlm` → `normalizeContext` (config prompt,
 *   5 tools) from @arbor/agent-loop;
 * - pi: `transformContext` (identity) → `convertToLlm` (pi-coding-agent) → `transformMessages`
 *   (pi-ai's per-provider normalization, which pi runs inside every stream call).
 */
import { pathToFileURL } from "node:url";
import { generateSessionLines } from "./generate-session.mjs";

const args = JSON.parse(process.argv[2] ?? "{}");
const count = args.messages ?? 1000;
const iterations = args.iterations ?? 2000;
const warmup = Math.ceil(iterations / 5);
const root = new URL("..", import.meta.url);

/** The last `count` messages of the leaf path of a generated session. */
function buildContext() {
  const byId = new Map();
  let last;
  for (const line of generateSessionLines({ entries: Math.ceil(count * 2.5), seed: 1 })) {
    const entry = JSON.parse(line);
    if (entry.type === "session") continue;
    byId.set(entry.id, entry);
    last = entry;
  }
  const path = [];
  for (let entry = last; entry; entry = entry.parentId ? byId.get(entry.parentId) : undefined)
    path.push(entry);
  const messages = path
    .reverse()
    .filter((entry) => entry.type === "message")
    .map((entry) => entry.message);
  if (messages.length < count) throw new Error(`only ${messages.length} messages on the path`);
  return messages.slice(-count);
}

const tool = (name) => ({
  name,
  description: `The ${name} tool`,
  parameters: { type: "object", properties: { path: { type: "string" } } },
});
const tools = ["read", "write", "edit", "bash", "grep"].map(tool);
const transformContext = (messages) => messages;

async function loadTurn() {
  if (args.impl === "pi") {
    const base = `${args.piDir}/node_modules/@earendil-works`;
    const { convertToLlm } = await import(
      pathToFileURL(`${base}/pi-coding-agent/dist/core/messages.js`).href
    );
    const { transformMessages } = await import(
      pathToFileURL(`${base}/pi-ai/dist/api/transform-messages.js`).href
    );
    const model = {
      id: "claude-sonnet-4-5",
      provider: "anthropic",
      api: "anthropic-messages",
      input: ["text", "image"],
    };
    return (context) => transformMessages(convertToLlm(transformContext(context)), model).length;
  }
  const { convertToLlm, normalizeContext } = await import(
    new URL("packages/agent-loop/dist/index.js", root).href
  );
  const { getModel } = await import(new URL("packages/providers/dist/index.js", root).href);
  const model = getModel("anthropic", "claude-sonnet-4-5");
  return (context) =>
    normalizeContext({
      messages: convertToLlm(transformContext(context)),
      systemPrompt: "Config prompt.",
      tools,
      model,
    }).messages.length;
}

const context = buildContext();
const turn = await loadTurn();
let sink = 0;
for (let i = 0; i < warmup; i++) sink += turn(context);
const samples = new Float64Array(iterations);
for (let i = 0; i < iterations; i++) {
  const start = performance.now();
  sink += turn(context);
  samples[i] = (performance.now() - start) * 1000;
}
samples.sort();
const at = (q) => samples[Math.min(samples.length - 1, Math.floor(samples.length * q))];
process.stdout.write(
  `${JSON.stringify({ impl: args.impl, messages: context.length, iterations, medianUs: at(0.5), p10Us: at(0.1), p90Us: at(0.9), checksum: sink % 997 })}\n`,
);
