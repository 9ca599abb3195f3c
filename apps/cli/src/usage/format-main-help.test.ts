import { describe, expect, it } from "vitest";
import { formatMainHelp } from "./format-main-help";
import { SUBCOMMAND_USAGES } from "./subcommand-usages";

describe("formatMainHelp", () => {
  const help = formatMainHelp("  arbor [options]", "Agent options:");
  const lines = help.split("\n");

  it("separates every command's synopsis from its summary", () => {
    for (const usage of SUBCOMMAND_USAGES) {
      const at = lines.findIndex((line) => line.startsWith(`  arbor ${usage.synopsis}`));
      expect(at, usage.synopsis).toBeGreaterThanOrEqual(0);
      const line = lines[at] as string;
      const rest = line.slice(`  arbor ${usage.synopsis}`.length);
      // Either the summary follows after at least two spaces, or it is alone on the next line.
      if (rest === "") expect(lines[at + 1]?.trim()).toBe(usage.summary);
      else expect(rest).toMatch(new RegExp(`^ {2,}${usage.summary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    }
  });

  it("starts every summary in the same column", () => {
    const columns = SUBCOMMAND_USAGES.map((usage) => {
      const line = lines.find((l) => l.endsWith(usage.summary)) as string;
      return line.length - usage.summary.length;
    });
    expect(new Set(columns).size).toBe(1);
  });

  it("has commands whose synopsis is longer than the column (so the wrap is exercised)", () => {
    expect(SUBCOMMAND_USAGES.some((usage) => usage.synopsis.length >= 25)).toBe(true);
  });
});
