import { describe, expect, it } from "vitest";
import type { AgentMessage } from "./agent-message";
import { COMPACTION_SUMMARY_PREFIX, convertToLlm, formatBashExecution } from "./convert-to-llm";

describe("convertToLlm", () => {
  it("passes LLM roles through and converts Arbor roles to user messages", () => {
    const user = { role: "user" as const, content: "hi", timestamp: 1 };
    const messages: AgentMessage[] = [
      { role: "system", content: "prompt", timestamp: 0 },
      user,
      { role: "custom", customType: "note", content: "remember", display: true, timestamp: 2 },
      { role: "compactionSummary", summary: "S", tokensBefore: 10, timestamp: 3 },
      { role: "branchSummary", summary: "B", fromId: "x", timestamp: 4 },
      {
        role: "bashExecution",
        command: "ls",
        output: "",
        exitCode: 2,
        cancelled: false,
        truncated: false,
        timestamp: 5,
      },
      {
        role: "bashExecution",
        command: "secret",
        output: "x",
        exitCode: 0,
        cancelled: false,
        truncated: false,
        excludeFromContext: true,
        timestamp: 6,
      },
    ];
    const converted = convertToLlm(messages);
    expect(converted.map((message) => message.role)).toEqual([
      "system",
      "user",
      "user",
      "user",
      "user",
      "user",
    ]);
    expect(converted[1]).toBe(user);
    expect(converted[2]).toEqual({
      role: "user",
      content: [{ type: "text", text: "remember" }],
      timestamp: 2,
    });
    const summary = converted[3];
    expect(
      summary?.role === "user" && Array.isArray(summary.content) && summary.content[0]?.type === "text"
        ? summary.content[0].text
        : "",
    ).toBe(`${COMPACTION_SUMMARY_PREFIX}S\n</summary>`);
  });

  it("drops unknown roles", () => {
    const unknown = { role: "note", text: "x", timestamp: 1 } as unknown as AgentMessage;
    expect(convertToLlm([unknown])).toEqual([]);
  });

  it("renders a failed command with its exit code and a cancelled one as cancelled", () => {
    const base = {
      role: "bashExecution" as const,
      command: "make",
      output: "err",
      cancelled: false,
      truncated: false,
      timestamp: 1,
    };
    expect(formatBashExecution({ ...base, exitCode: 2 })).toContain("Exit code: 2");
    expect(formatBashExecution({ ...base, exitCode: undefined, cancelled: true })).toContain("cancelled");
    expect(formatBashExecution({ ...base, exitCode: 0 })).not.toContain("Exit code");
  });
});
