import type { AssistantMessage, ToolResultMessage, TranscriptMessage } from "@arbor/providers";
import { createEmptyUsage, MISSING_TOOL_RESULT_TEXT } from "@arbor/providers";
import { describe, expect, it } from "vitest";
import { testModel } from "../test/support/test-model";
import { normalizeContext } from "./normalize-context";

function assistant(
  stopReason: AssistantMessage["stopReason"],
  callIds: string[] = [],
  text = "t",
): AssistantMessage {
  return {
    role: "assistant",
    content: [
      ...(text ? [{ type: "text" as const, text }] : []),
      ...callIds.map((id) => ({ type: "toolCall" as const, id, name: `tool-${id}`, arguments: {} })),
    ],
    api: "a",
    provider: "p",
    model: "m",
    usage: createEmptyUsage(),
    stopReason,
    timestamp: 10,
  };
}

function result(toolCallId: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName: `tool-${toolCallId}`,
    content: [],
    isError: false,
    timestamp: 11,
  };
}

const user = (content: string) => ({ role: "user" as const, content, timestamp: 1 });
const run = (
  messages: TranscriptMessage[],
  systemPrompt?: string,
  tools: NonNullable<Parameters<typeof normalizeContext>[0]["tools"]> = [],
) => normalizeContext({ messages, systemPrompt, tools, model: testModel });

describe("normalizeContext", () => {
  it("returns messages only when there is no prompt and no tool", () => {
    const messages = [user("q")];
    const normalized = run(messages);
    expect(normalized).toEqual({ messages });
    expect(normalized.messages[0]).toBe(messages[0]);
  });

  it("folds the config prompt and replayed system messages, config first, and merges tools", () => {
    const read = { name: "read", description: "old read", parameters: { type: "object" } };
    const grep = { name: "grep", description: "grep", parameters: { type: "object" } };
    const normalized = run(
      [
        {
          role: "system",
          content: "Base.",
          sections: { rules: "Rules." },
          toolsAdded: [read, grep],
          timestamp: 0,
        },
        user("q"),
        { role: "system", content: "", sections: { rules: null }, timestamp: 5 },
      ],
      "Config.",
      [
        { name: "write", description: "write", parameters: { type: "object" } },
        { name: "read", description: "new read", parameters: { type: "object" } },
      ],
    );
    expect(normalized.systemPrompt).toBe("Config.\n\nBase.");
    expect(normalized.tools?.map((tool) => `${tool.name}:${tool.description}`)).toEqual([
      "read:new read",
      "grep:grep",
      "write:write",
    ]);
    expect(normalized.messages.map((message) => message.role)).toEqual(["user"]);
  });

  it("drops failed and empty assistant messages together with the results answering them", () => {
    const normalized = run([
      user("q"),
      assistant("error", ["e1"]),
      result("e1"),
      assistant("aborted", [], "half"),
      assistant("stop", [], ""),
      user("again"),
      assistant("stop"),
    ]);
    expect(normalized.messages.map((message) => message.role)).toEqual(["user", "user", "assistant"]);
  });

  it("keeps results that answer the assistant just before them and drops orphans and repeats", () => {
    const normalized = run([
      user("q"),
      assistant("toolUse", ["a", "b"]),
      result("b"),
      result("a"),
      result("a"),
      result("zzz"),
      user("next"),
    ]);
    expect(
      normalized.messages.map((message) =>
        message.role === "toolResult" ? message.toolCallId : message.role,
      ),
    ).toEqual(["user", "assistant", "a", "b", "user"]);
  });

  it("gives every call left without a result an error result and moves interrupting users after the results", () => {
    const normalized = run([
      user("q"),
      assistant("toolUse", ["a", "b"]),
      user("interrupt"),
      result("a"),
      assistant("toolUse", ["c"]),
    ]);
    const shape = normalized.messages.map((message) =>
      message.role === "toolResult" ? `${message.toolCallId}:${message.isError}` : message.role,
    );
    expect(shape).toEqual(["user", "assistant", "a:false", "b:true", "user", "assistant", "c:true"]);
    const synthetic = normalized.messages[3] as ToolResultMessage;
    expect(synthetic).toMatchObject({
      role: "toolResult",
      toolCallId: "b",
      toolName: "tool-b",
      content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
      isError: true,
    });
  });

  it("does not mutate its input", () => {
    const messages: TranscriptMessage[] = [user("q"), assistant("toolUse", ["a"])];
    const snapshot = structuredClone(messages);
    run(messages, "p");
    expect(messages).toEqual(snapshot);
  });
});
