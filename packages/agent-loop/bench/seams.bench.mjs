/**
 * Per-turn overhead of the three seams the loop runs before every request, on a 1,000-message
 * context: transformContext (identity, as a configured pass-through), convertToLlm (default) and
 * normalizeContext (default, with a config prompt and 5 tools).
 *
 * Run after building: `pnpm --filter @arbor/agent-loop build && node packages/agent-loop/bench/seams.bench.mjs`
 * Prints the median, p10 and p90 of many iterations in microseconds per turn.
 */
import { performance } from "node:perf_hooks";
import { getModel } from "@arbor/providers";
import { convertToLlm, normalizeContext } from "../dist/index.js";

const MESSAGES = 1_000;
const WARMUP = 300;
const ITERATIONS = 3_000;

function usage() {
  return {
    input: 10,
    output: 5,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 15,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

function tool(name) {
  return {
    name,
    description: `The ${name} tool`,
    parameters: { type: "object", properties: { path: { type: "string" } } },
  };
}

/** A realistic mix: a system head, user prompts, assistant responses with tool calls, tool results, summaries. */
function buildContext(count) {
  const text = "lorem ipsum dolor sit amet ".repeat(8);
  const messages = [
    {
      role: "system",
      content: "You are a coding agent.",
      sections: { rules: "Be careful." },
      toolsAdded: [tool("read"), tool("write")],
      timestamp: 0,
    },
    { role: "compactionSummary", summary: text, tokensBefore: 50_000, timestamp: 1 },
  ];
  let id = 0;
  while (messages.length < count) {
    const step = messages.length % 7;
    const timestamp = messages.length;
    if (step === 0) messages.push({ role: "user", content: text, timestamp });
    else if (step === 1 || step === 4) {
      id++;
      messages.push({
        role: "assistant",
        content: [
          { type: "text", text },
          { type: "toolCall", id: `call-${id}`, name: "read", arguments: { path: `f${id}.ts` } },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: usage(),
        stopReason: "toolUse",
        timestamp,
      });
    } else if (step === 2 || step === 5) {
      messages.push({
        role: "toolResult",
        toolCallId: `call-${id}`,
        toolName: "read",
        content: [{ type: "text", text }],
        isError: false,
        timestamp,
      });
    } else if (step === 3) {
      messages.push({ role: "custom", customType: "note", content: text, display: true, timestamp });
    } else {
      messages.push({
        role: "assistant",
        content: [{ type: "text", text }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: usage(),
        stopReason: "stop",
        timestamp,
      });
    }
  }
  return messages;
}

const context = buildContext(MESSAGES);
const tools = ["read", "write", "edit", "bash", "grep"].map(tool);
const model = getModel("anthropic", "claude-sonnet-4-5");
const transformContext = (messages) => messages;
let sink = 0;

function turn() {
  const transformed = transformContext(context);
  const converted = convertToLlm(transformed);
  const request = normalizeContext({ messages: converted, systemPrompt: "Config prompt.", tools, model });
  sink += request.messages.length + (request.tools?.length ?? 0);
}

for (let index = 0; index < WARMUP; index++) turn();
const samples = new Float64Array(ITERATIONS);
for (let index = 0; index < ITERATIONS; index++) {
  const start = performance.now();
  turn();
  samples[index] = (performance.now() - start) * 1000;
}
samples.sort();
const at = (fraction) => samples[Math.min(samples.length - 1, Math.floor(samples.length * fraction))];
console.log(
  `seams per turn on ${MESSAGES} messages: median ${at(0.5).toFixed(1)} µs (p10 ${at(0.1).toFixed(1)}, p90 ${at(0.9).toFixed(1)}; ${ITERATIONS} iterations, checksum ${sink % 997})`,
);
