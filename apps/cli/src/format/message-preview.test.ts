import { createEmptyUsage } from "@arbor/providers";
import { describe, expect, it } from "vitest";
import { clip, previewMessage } from "./message-preview";
import { sanitizeTerminalText } from "./sanitize-terminal-text";

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

  it("previews hostile assistant content (missing, null, non-object blocks, bad arguments) instead of failing", () => {
    const base = {
      api: "x",
      provider: "p",
      model: "m",
      usage: createEmptyUsage(),
      stopReason: "stop",
      timestamp: 0,
    };
    const missing = { role: "assistant", ...base } as unknown as Parameters<typeof previewMessage>[0];
    expect(previewMessage(missing)).toBe("");
    const odd = {
      role: "assistant",
      ...base,
      content: [
        null,
        7,
        { type: "text", text: "Hi." },
        { type: "toolCall", id: "c", name: "read", arguments: null },
      ],
    } as unknown as Parameters<typeof previewMessage>[0];
    expect(previewMessage(odd)).toBe("Hi. → read()");
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

  it("shows content blocks as their joined text would (a missing text empty, a number as digits)", () => {
    const content = [
      { type: "text", text: 42 },
      { type: "image" },
      { type: "text" },
      { type: "text", text: "end" },
    ];
    expect(previewMessage({ role: "user", content, timestamp: 0 } as never)).toBe("42 [image] end");
  });

  it("clips long text with an ellipsis", () => {
    expect(clip("abcdefghij", 5)).toBe("abcd…");
  });
});

describe("clip", () => {
  it("removes escape sequences and bidi overrides from previews", () => {
    expect(clip("a\u001b]0;title\u0007b\u001b[2Jc\u202ed\u009b31me", 80)).toBe("abcde");
  });

  it("gives the same result as clipping the whole text, wherever sequences and whitespace fall", () => {
    // The whole-text definition clip must agree with (it only reads a growing prefix).
    const reference = (text: string, width: number) => {
      const flat = sanitizeTerminalText(text).replace(/\s+/g, " ").trim();
      return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
    };
    const pieces = [
      "word ",
      "x",
      " ",
      "\n\n\t ",
      "\r\n",
      "\r",
      "\u001b[31m",
      "\u001b[",
      "\u001b]0;a title that goes on",
      "\u0007",
      "\u001b\\",
      "\u009b2J",
      "\u202e",
      "😀",
      " ".repeat(300),
      "\u001b]8;;".concat("y".repeat(400)),
      "z".repeat(97),
      "\u00a0",
      " \u2028 ",
      "\u3000\u3000",
      "\ufeff",
    ];
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 3000; round++) {
      let text = "";
      const parts: string[] = [];
      const count = 1 + random(60);
      for (let i = 0; i < count; i++) {
        const piece = pieces[random(pieces.length)] as string;
        text += piece;
        // The same text in parts cut anywhere (a sequence, a run or a surrogate pair cut in two).
        const cut = random(piece.length + 1);
        if (random(2) === 0) parts.push(piece.slice(0, cut), piece.slice(cut));
        else parts.push(piece);
      }
      for (const width of [1, 8, 30, 80]) {
        expect(clip(text, width), JSON.stringify({ text, width })).toBe(reference(text, width));
        expect(clip(parts, width), JSON.stringify({ parts, width })).toBe(reference(text, width));
      }
    }
  });
});
