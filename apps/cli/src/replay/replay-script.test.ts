import type { SessionEntry } from "@arbor/session-store";
import { describe, expect, it } from "vitest";
import { buildReplayScript } from "./replay-script";

let counter = 0;
const entry = (message: Record<string, unknown>): SessionEntry =>
  ({
    type: "message",
    id: `e${++counter}`,
    parentId: null,
    timestamp: "",
    message: { timestamp: 0, ...message },
  }) as SessionEntry;
const user = (text: string) => entry({ role: "user", content: text });
const assistant = (content: unknown[], stopReason = "stop") =>
  entry({
    role: "assistant",
    content,
    stopReason,
    usage: { output: 1 },
    api: "x",
    provider: "x",
    model: "x",
  });
const call = (id: string) => ({ type: "toolCall", id, name: "read", arguments: { path: `${id}.ts` } });
const result = (id: string) =>
  entry({
    role: "toolResult",
    toolCallId: id,
    toolName: "read",
    content: [{ type: "text", text: id }],
    isError: false,
  });

describe("buildReplayScript", () => {
  it("groups answers and tool results by prompt; a prompt typed while tools ran is a steering prompt", () => {
    const script = buildReplayScript([
      user("one"),
      assistant([call("a")], "toolUse"),
      result("a"),
      assistant([{ type: "text", text: "done" }]),
      user("two"),
      assistant([call("b")], "toolUse"),
      result("b"),
      user("steer"),
      assistant([{ type: "text", text: "ok" }]),
    ]);
    expect(script.turns.map((turn) => [turn.steps.length, turn.steering])).toEqual([
      [2, false],
      [1, false],
      [1, true],
    ]);
    expect(script.turns[0]?.steps[0]?.results.get("a")?.toolCallId).toBe("a");
    expect(script.recorded).toHaveLength(9);
    expect(script.skipped).toBe(0);
  });

  it("skips failed answers that were retried and empty failures; a failed last answer with content ends as stop", () => {
    const script = buildReplayScript([
      user("one"),
      assistant([], "error"),
      assistant([{ type: "text", text: "rate limited" }], "error"),
      assistant([{ type: "text", text: "partial" }], "aborted"),
      { type: "model_change", id: "m", parentId: null, timestamp: "" } as unknown as SessionEntry,
    ]);
    const steps = script.turns[0]?.steps ?? [];
    expect(steps.map((step) => step.assistant.stopReason)).toEqual(["stop"]);
    expect(steps[0]?.assistant.content).toEqual([{ type: "text", text: "partial" }]);
    expect(steps[0]?.assistant.errorMessage).toBeUndefined();
    expect(script.skipped).toBe(2);
  });
});
