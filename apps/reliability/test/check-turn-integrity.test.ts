import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model } from "@arbor/providers";
import { createSessionStore } from "@arbor/session-store";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkSessionAfterFault,
  findTurnProblems,
  findWireRequestProblems,
} from "../src/check-turn-integrity";

const dir = mkdtempSync(join(tmpdir(), "arbor-turns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const model: Model = {
  id: "m",
  provider: "anthropic",
  api: "anthropic-messages",
  contextWindow: 10_000,
  maxTokens: 100,
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};
const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const call = (id: string, stopReason: "toolUse" | "error") => ({
  role: "assistant" as const,
  content: [{ type: "toolCall" as const, id, name: "read", arguments: {} }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "m",
  usage,
  stopReason,
  timestamp: 1,
});
const result = (id: string) => ({
  role: "toolResult" as const,
  toolCallId: id,
  toolName: "read",
  content: [{ type: "text" as const, text: "r" }],
  isError: false,
  timestamp: 2,
});
const user = { role: "user" as const, content: "u", timestamp: 3 };

describe("turn integrity checks (they must be able to fail)", () => {
  it("flags a tool call without its result, a stray result, and a result for an errored call", () => {
    expect(findTurnProblems([user, call("a", "toolUse"), user], "x")).toHaveLength(1);
    expect(findTurnProblems([user, call("a", "toolUse")], "x")).toHaveLength(1);
    expect(findTurnProblems([user, result("z")], "x")).toHaveLength(1);
    expect(findTurnProblems([user, call("a", "error"), result("a")], "x")).toHaveLength(1);
    expect(findTurnProblems([user, call("a", "toolUse"), result("a"), user], "x")).toEqual([]);
  });

  it("flags a session file whose last turn is cut and a torn last line", () => {
    const store = createSessionStore({ dir, cwd: dir });
    store.appendMessage(user);
    store.appendMessage(call("a", "toolUse"));
    store.close();
    const file = store.path as string;
    expect(checkSessionAfterFault(file, model)).toEqual(["branch: the last turn lacks the results of a"]);
    appendFileSync(file, '{"type":"message","id":"x"');
    const problems = checkSessionAfterFault(file, model);
    expect(problems.some((p) => p.includes("does not end with a newline"))).toBe(true);
    expect(problems.some((p) => p.includes("SESSION_TAIL_TORN"))).toBe(true);
  });

  it("flags unanswered calls in Anthropic and OpenAI request bodies", () => {
    const anthropic = {
      messages: [
        { role: "user", content: "u" },
        { role: "assistant", content: [{ type: "tool_use", id: "a", name: "read", input: {} }] },
        { role: "user", content: "next" },
      ],
    };
    expect(findWireRequestProblems(anthropic, "anthropic")).toHaveLength(1);
    const openai = {
      messages: [
        { role: "user", content: "u" },
        { role: "assistant", content: null, tool_calls: [{ id: "a" }, { id: "b" }] },
        { role: "tool", tool_call_id: "a", content: "r" },
        { role: "user", content: "next" },
      ],
    };
    expect(findWireRequestProblems(openai, "openai")).toEqual([
      "request message 3: calls b are not answered",
    ]);
  });
});
