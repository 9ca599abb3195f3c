import type { AgentMessage } from "@arbor/agent-loop";
import { estimateTokens } from "@arbor/compaction";
import type { SessionProjection } from "@arbor/session-store";
import { describe, expect, it } from "vitest";
import { planMaskEdits } from "./plan-mask-edits";

/** A projection of plain message entries (ids m1, m2, …). */
function projection(messages: AgentMessage[]): SessionProjection {
  const entries = messages.map((message, index) => ({
    sourceEntry: { type: "message", id: `m${index + 1}`, parentId: null, timestamp: "", message },
    messages: [message],
  }));
  return { entries, messages, thinkingLevel: "off", model: null } as unknown as SessionProjection;
}

const big = "x".repeat(4000); // about 1000 tokens
const editCall = {
  role: "assistant",
  content: [
    { type: "toolCall", id: "c1", name: "edit", arguments: { path: "src/a.ts", oldText: big, newText: big } },
  ],
  stopReason: "toolUse",
  timestamp: 0,
} as unknown as AgentMessage;
const output = (text: string) =>
  ({
    role: "toolResult",
    toolCallId: "c1",
    toolName: "edit",
    content: [{ type: "text", text }],
    isError: false,
    timestamp: 0,
  }) as AgentMessage;
const recent = { role: "user", content: "y".repeat(8000), timestamp: 0 } as AgentMessage;

const options = {
  countTokens: estimateTokens,
  minToolResultTokens: 200,
  protectRecentTokens: 1500,
  wantedSavingTokens: Number.POSITIVE_INFINITY,
};

describe("planMaskEdits", () => {
  it("masks old large outputs outside the protected tail, keeping their first line; small ones stay", () => {
    const edits = planMaskEdits(projection([output(`line one\n${big}`), output("small"), recent]), options);
    expect(edits.map((edit) => edit.targetId)).toEqual(["m1"]);
    expect(edits[0]?.replacement.content).toMatch(
      /^\[output of edit hidden by the context policy: about \d+ tokens; it began with: line one\]$/,
    );
    expect(edits[0]?.savedTokens).toBeGreaterThan(900);
  });

  it("with maskToolArguments, hides the large string arguments of old tool calls but keeps the path", () => {
    const without = planMaskEdits(projection([editCall, recent]), options);
    expect(without).toEqual([]);
    const edits = planMaskEdits(projection([editCall, recent]), { ...options, maskToolArguments: true });
    expect(edits).toHaveLength(1);
    const content = (edits[0]?.replacement.content ?? []) as Array<{
      id: string;
      arguments: Record<string, unknown>;
    }>;
    const call = content[0];
    expect(call?.id).toBe("c1");
    expect(call?.arguments).toEqual({
      path: "src/a.ts",
      oldText: "[argument hidden by the context policy]",
      newText: "[argument hidden by the context policy]",
    });
  });

  it("masks nothing inside the protected tail, and nothing already masked", () => {
    expect(planMaskEdits(projection([output(big)]), { ...options, protectRecentTokens: 5000 })).toEqual([]);
    const placeholder = "[output of read hidden by the context policy: about 1000 tokens; it began with: x]";
    expect(planMaskEdits(projection([output(placeholder + big), recent]), options)).toEqual([]);
  });
});
