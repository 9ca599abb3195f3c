import { createEmptyUsage } from "@arbor/providers";
import { describe, expect, it } from "vitest";
import { clip, previewMessage } from "./message-preview";

describe("previewMessage", () => {
  it("shows user text on one line", () => {
    expect(previewMessage({ role: "user", content: "fix\n  the bug", timestamp: 0 })).toBe("fix the bug");
  });

  it("shows assistant text and tool calls", () => {
    const preview = previewMessage({
      role: "assistant",
      content: [
        { type: "text", text: "Reading." },
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "src/a.ts" } },
      ],
      api: "x",
      provider: "p",
      model: "m",
      usage: createEmptyUsage(),
      stopReason: "toolUse",
      timestamp: 0,
    });
    expect(preview).toBe("Reading. → read(src/a.ts)");
  });

  it("marks tool errors and provider errors", () => {
    expect(
      previewMessage({
        role: "toolResult",
        toolCallId: "c",
        toolName: "bash",
        content: [{ type: "text", text: "boom\nmore" }],
        isError: true,
        timestamp: 0,
      }),
    ).toBe("✗ bash: boom more");
    expect(
      previewMessage({
        role: "assistant",
        content: [],
        api: "x",
        provider: "p",
        model: "m",
        usage: createEmptyUsage(),
        stopReason: "error",
        errorMessage: "overloaded",
        timestamp: 0,
      }),
    ).toBe("[error: overloaded]");
  });

  it("summarizes system messages by sections and tools", () => {
    expect(
      previewMessage({
        role: "system",
        content: "",
        sections: { preamble: "x", cwd: "y" },
        toolsAdded: [{ name: "read", description: "", parameters: {} }],
        timestamp: 0,
      }),
    ).toBe("sections: preamble, cwd; +1 tool");
  });

  it("clips long text with an ellipsis", () => {
    expect(clip("abcdefghij", 5)).toBe("abcd…");
  });
});

describe("clip", () => {
  it("removes escape sequences and bidi overrides from previews", () => {
    expect(clip("a\u001b]0;title\u0007b\u001b[2Jc\u202ed\u009b31me", 80)).toBe("abcde");
  });
});
