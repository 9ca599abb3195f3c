import type { AgentMessage } from "@arbor/agent-loop";
import { createInMemorySessionStore, type MemorySessionStorage } from "@arbor/session-store";
import { generateSessionLines } from "../../../bench/generate-session.mjs";
import { createSeededRandom } from "./seeded-random";

const MAX_TEXT = 400;

/** Caps every string in a generated message so that fuzz files stay small (a few KB). */
function capStrings(value: unknown): unknown {
  if (typeof value === "string") return value.length > MAX_TEXT ? value.slice(0, MAX_TEXT) : value;
  if (Array.isArray(value)) return value.map(capStrings);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capStrings(v)]));
  return value;
}

/** Realistic messages (unicode, escapes, tool calls, images) from the benchmark generator. */
function generatedMessages(seed: number, count: number): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (const line of generateSessionLines({ entries: count * 2, seed })) {
    const entry = JSON.parse(line) as { type: string; message?: AgentMessage };
    if (entry.type === "message" && entry.message && entry.message.role !== "system")
      messages.push(capStrings(entry.message) as AgentMessage);
    if (messages.length === count) break;
  }
  return messages;
}

/**
 * Builds a small valid session (about 30 entries, every entry type the store writes: messages of
 * every role, model and thinking level changes, label, custom entry and message, usage, context
 * edit, compaction, branch summary after a jump back, session name) with the session store itself,
 * deterministically from `seed` (ids, clock and content). Returns its lines, header first, without
 * newlines.
 */
export function buildFuzzBase(seed: number): string[] {
  const rng = createSeededRandom(seed);
  let clock = Date.parse("2025-03-01T10:00:00.000Z") + seed * 1000;
  const store = createInMemorySessionStore({
    sessionId: `fuzz-${seed}`,
    cwd: "/home/fuzz/project",
    now: () => {
      clock += rng.between(100, 5000);
      return new Date(clock);
    },
    idSource: () => rng.int(0x1_0000_0000).toString(16).padStart(8, "0"),
  });
  const messages = generatedMessages(seed, 14);
  const next = () => messages.shift() ?? { role: "user" as const, content: "more", timestamp: clock };
  store.appendModelChange("anthropic", "claude-fuzz");
  store.appendThinkingLevelChange("medium");
  const first = store.appendMessage({
    role: "user",
    content: 'Start: fix the parser — ünïcode "q" \\',
    timestamp: clock,
  });
  for (let i = 0; i < 5; i++) store.appendMessage(next());
  store.appendLabelChange(first.id, "start");
  store.appendCustomMessageEntry({ customType: "note", content: "Remember the tests", display: true });
  store.appendCustomEntry("fuzz-state", { step: 1, nested: { list: [1, 2, 3] } });
  const keep = store.appendMessage(next());
  store.appendUsage({
    kind: "warmup",
    provider: "anthropic",
    model: "claude-fuzz",
    usage: {
      input: 10,
      output: 1,
      cacheRead: 0,
      cacheWrite: 5,
      totalTokens: 16,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
  });
  const edited = store.appendMessage({
    role: "user",
    content: "a long paste to hide later",
    timestamp: clock,
  });
  store.appendContextEdit(edited.id, { content: "[paste hidden]" });
  for (let i = 0; i < 3; i++) store.appendMessage(next());
  store.appendCompaction({
    summary: "## Goal\nFix the parser",
    firstKeptEntryId: keep.id,
    tokensBefore: 12345,
  });
  store.appendMessage({
    role: "bashExecution",
    command: "npm test",
    output: "ok 1 — passed\n",
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: clock,
  });
  store.appendMessage({
    role: "custom",
    customType: "reminder",
    content: "custom role",
    display: false,
    timestamp: clock,
  });
  const tip = store.appendMessage(next());
  store.branchWithSummary(keep.id, { summary: "Explored another approach", details: { files: ["a.ts"] } });
  for (let i = 0; i < 3; i++) store.appendMessage(next());
  store.appendSessionInfo("fuzz session");
  store.branch(tip.id);
  store.appendMessage(next());
  const text = (store.storage as MemorySessionStorage).toJsonl();
  store.close();
  return text.split("\n").slice(0, -1);
}
