import type { SystemMessage } from "@arbor/providers";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt, replaySystemMessages, resolveCurrentTools } from "./replay-system-messages";

const read = { name: "read", description: "Read a file", parameters: { type: "object" } };
const write = { name: "write", description: "Write a file", parameters: { type: "object" } };

describe("replaySystemMessages", () => {
  it("returns undefined for a transcript without system messages", () => {
    expect(replaySystemMessages([{ role: "user" }])).toBeUndefined();
  });

  it("joins content, patches sections by name and resolves tools in order", () => {
    const messages: SystemMessage[] = [
      {
        role: "system",
        content: "base",
        sections: { a: "A", b: "B" },
        toolsAdded: [read, write],
        timestamp: 5,
      },
      {
        role: "system",
        content: "",
        sections: { a: null, c: "C" },
        toolsRemoved: [{ name: "read" }],
        timestamp: 9,
      },
      { role: "system", content: [{ type: "text", text: "more" }], timestamp: 12 },
    ];
    const replayed = replaySystemMessages(messages);
    expect(replayed).toEqual({
      role: "system",
      content: "base\n\nmore",
      sections: { b: "B", c: "C" },
      toolsAdded: [write],
      timestamp: 5,
    });
    expect(Object.keys(replayed ?? {})).toEqual(["role", "content", "sections", "toolsAdded", "timestamp"]);
    expect(renderSystemPrompt(replayed as SystemMessage)).toBe("base\n\nmore\n\nB\n\nC");
  });

  it("re-adding a removed tool puts it at the end with its new declaration", () => {
    const newer = { ...read, description: "Read v2" };
    const tools = resolveCurrentTools([
      { role: "system", content: "", toolsAdded: [read, write], timestamp: 1 },
      { role: "system", content: "", toolsRemoved: [{ name: "read" }], toolsAdded: [newer], timestamp: 2 },
    ] as SystemMessage[]);
    expect(tools.map((tool) => tool.description)).toEqual(["Write a file", "Read v2"]);
  });
});
