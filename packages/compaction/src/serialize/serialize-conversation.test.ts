import type { TranscriptMessage } from "@arbor/providers";
import { describe, expect, it } from "vitest";
import { assistant, toolCall, toolResult, user } from "../internal/testing/messages";
import { serializeConversation } from "./serialize-conversation";

describe("serializeConversation", () => {
  it("renders each role in the [Role]: form, joined by blank lines", () => {
    const messages: TranscriptMessage[] = [
      { role: "system", content: "ignored", timestamp: 0 },
      user([
        { type: "text", text: "Fix " },
        { type: "image", data: "", mimeType: "image/png" },
        { type: "text", text: "foo.ts" },
      ]),
      assistant([
        { type: "thinking", thinking: "hidden" },
        { type: "text", text: "Line 1" },
        { type: "text", text: "Line 2" },
        toolCall("1", "read", { path: "foo.ts", limit: 10 }),
        toolCall("2", "ls", {}),
      ]),
      toolResult("1", "read", "content"),
      assistant([{ type: "thinking", thinking: "only thinking" }]),
      user([{ type: "image", data: "", mimeType: "image/png" }]),
    ];
    expect(serializeConversation(messages)).toBe(
      [
        "[User]: Fix foo.ts",
        "[Assistant]: Line 1\nLine 2",
        '[Assistant tool calls]: read(path="foo.ts", limit=10); ls()',
        "[Tool result]: content",
      ].join("\n\n"),
    );
  });

  it("truncates tool results with a marker counting the cut characters", () => {
    const text = serializeConversation([toolResult("1", "read", "x".repeat(2500))]);
    expect(text).toBe(`[Tool result]: ${"x".repeat(2000)}\n\n[... 500 more characters truncated]`);
    expect(serializeConversation([user("y".repeat(5000))])).toHaveLength(5000 + "[User]: ".length);
  });

  it("never splits a surrogate pair (the count stays length - max, as in pi) and honours toolResultMaxChars", () => {
    const emoji = "😀";
    const text = serializeConversation([toolResult("1", "read", `abc${emoji}def`)], {
      toolResultMaxChars: 4,
    });
    expect(text).toBe("[Tool result]: abc\n\n[... 4 more characters truncated]");
  });
});
