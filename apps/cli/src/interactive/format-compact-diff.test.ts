import { describe, expect, it } from "vitest";
import { formatCompactDiff, MAX_COMPACT_DIFF_LINES } from "./format-compact-diff";
import { createTerminalStyle } from "./terminal-style";

const plain = createTerminalStyle(false);

describe("formatCompactDiff", () => {
  it("keeps the changed lines, colored, without headers or context", () => {
    const diff = "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three";
    expect(formatCompactDiff(diff, plain, 80)).toEqual(["-two", "+2"]);
    expect(formatCompactDiff(diff, createTerminalStyle(true), 80)).toEqual([
      "\u001b[31m-two\u001b[39m",
      "\u001b[32m+2\u001b[39m",
    ]);
  });

  it("clips long lines, caps the count, and makes the file's text inert", () => {
    const lines = Array.from(
      { length: 20 },
      (_, index) => `+line ${index} \u001b]0;title\u0007${"x".repeat(100)}`,
    );
    const shown = formatCompactDiff(`--- a/f\n+++ b/f\n@@ -0,0 +1,20 @@\n${lines.join("\n")}`, plain, 40);
    expect(shown).toHaveLength(MAX_COMPACT_DIFF_LINES + 1);
    expect(shown[0]).toBe(`+line 0 ${"x".repeat(31)}…`);
    expect(shown.at(-1)).toBe("… 8 more changed lines");
  });
});
