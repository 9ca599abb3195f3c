import { describe, expect, it } from "vitest";
import { clipAtBoundary, leadSentences, proseParagraphs, stripMarkdown } from "./text-utils";

describe("clipAtBoundary", () => {
  it("returns text that fits unchanged", () => {
    expect(clipAtBoundary("Short. Text.", 12)).toBe("Short. Text.");
  });

  it("cuts after the last whole sentence that fits", () => {
    expect(clipAtBoundary("First sentence here. Second sentence is longer than the room.", 40)).toBe(
      "First sentence here. …",
    );
  });

  it("cuts at a word boundary when no sentence fits, without trailing punctuation", () => {
    expect(clipAtBoundary("Invalid values should give a 400 with a clear message, always", 50)).toBe(
      "Invalid values should give a 400 with a clear…",
    );
  });
});

describe("stripMarkdown", () => {
  it("removes bold and italic markers and a heading marker, keeps code spans and identifiers", () => {
    expect(stripMarkdown("## **Behaviour** of `GET /todos` is *stable* for __init__ and a*b*c")).toBe(
      "Behaviour of `GET /todos` is stable for __init__ and a*b*c",
    );
  });
});

describe("proseParagraphs and leadSentences", () => {
  const answer = [
    "A cursor variant works alongside offset, and the existing tests pass. How they compare:",
    "",
    "| | offset | cursor |",
    "|---|---|---|",
    "",
    "**Files**",
    "- `src/server.ts`",
    "",
    "```ts",
    "const x = 1.",
    "```",
    "I'd keep *offset* now.",
  ].join("\n");

  it("keeps prose sentences only and drops a colon sentence that introduces skipped content", () => {
    expect(proseParagraphs(answer)).toEqual([
      ["A cursor variant works alongside offset, and the existing tests pass."],
      ["I'd keep offset now."],
    ]);
  });

  it("keeps a trailing colon sentence when nothing follows it", () => {
    expect(proseParagraphs("`offset` needs its default. Fixing that:")).toEqual([
      ["`offset` needs its default.", "Fixing that:"],
    ]);
  });

  it("leads with the first sentences of the first prose paragraph, else the first list item", () => {
    expect(leadSentences(answer, 200)).toBe(
      "A cursor variant works alongside offset, and the existing tests pass.",
    );
    expect(leadSentences("- **Added** the test\n- fixed the bug", 200)).toBe("Added the test");
  });
});
