import type { AgentMessage } from "@arbor/agent-loop";
import { describe, expect, it } from "vitest";
import { assistant, toolCall, toolResult, user } from "../internal/testing/messages";
import { ESTIMATED_IMAGE_CHARS, estimateTokens } from "./estimate-tokens";

const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

describe("estimateTokens", () => {
  it("matches pi's verified examples", () => {
    expect(estimateTokens(user([image, { type: "text", text: "abcd" }]))).toBe(1201);
    expect(estimateTokens(assistant([toolCall("c", "read", { path: "a" })]))).toBe(4);
    const system = {
      role: "system",
      content: "abcd",
      sections: { a: "1234", b: null },
      toolsAdded: [{ name: "x" }],
      timestamp: 0,
    } as unknown as AgentMessage;
    expect(estimateTokens(system)).toBe(6);
  });

  it("counts chars/4 rounded up per role", () => {
    expect(estimateTokens(user("abcde"))).toBe(2);
    expect(estimateTokens(toolResult("c", "bash", "x".repeat(9)))).toBe(3);
    const thinkingAndText = assistant([
      { type: "thinking", thinking: "1234" },
      { type: "text", text: "5678" },
    ]);
    expect(estimateTokens(thinkingAndText)).toBe(2);
    const bash = {
      role: "bashExecution",
      command: "ls",
      output: "abcdef",
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 0,
    } as AgentMessage;
    expect(estimateTokens(bash)).toBe(2);
    const summary = {
      role: "compactionSummary",
      summary: "s".repeat(40),
      tokensBefore: 1,
      timestamp: 0,
    } as AgentMessage;
    expect(estimateTokens(summary)).toBe(10);
    const custom = {
      role: "custom",
      customType: "n",
      content: [image],
      display: true,
      timestamp: 0,
    } as AgentMessage;
    expect(estimateTokens(custom)).toBe(ESTIMATED_IMAGE_CHARS / 4);
  });

  it("gives 0 for unknown roles and tolerates malformed content", () => {
    expect(estimateTokens({ role: "note", timestamp: 0 } as unknown as AgentMessage)).toBe(0);
    expect(estimateTokens({ role: "user", content: null, timestamp: 0 } as unknown as AgentMessage)).toBe(0);
    const badCall = assistant([{ type: "toolCall", id: "c", name: "x", arguments: undefined as never }]);
    expect(estimateTokens(badCall)).toBe(1);
  });
});
