import { describe, expect, it } from "vitest";
import { buildSystemPrompt } from "./build-system-prompt";

const file = (path: string, text: string, truncated = false) => ({
  path,
  text,
  bytes: truncated ? 100_000 : text.length,
  truncated,
  replacedInvalidUtf8: false,
});

describe("buildSystemPrompt", () => {
  it("puts arbor's instructions, the context files, the appended text and the environment in that order", () => {
    const prompt = buildSystemPrompt({
      cwd: "/w/p",
      date: new Date("2026-03-04T12:00:00Z"),
      platform: "linux",
      contextFiles: [file("/h/.arbor/AGENTS.md", "global rule"), file("/w/p/AGENTS.md", "project rule")],
      append: { text: "be brief", source: "--append-system-prompt text" },
    });
    expect(prompt.sections.map((section) => [section.kind, section.source])).toEqual([
      ["base", "arbor"],
      ["context-file", "/h/.arbor/AGENTS.md"],
      ["context-file", "/w/p/AGENTS.md"],
      ["append", "--append-system-prompt text"],
      ["environment", "environment"],
    ]);
    const text = prompt.text;
    expect(text.indexOf("You are arbor")).toBe(0);
    expect(text.indexOf("global rule")).toBeLessThan(text.indexOf("project rule"));
    expect(text.indexOf("project rule")).toBeLessThan(text.indexOf("be brief"));
    expect(text).toMatch(
      /be brief\n\nEnvironment:\n- Working folder: \/w\/p\n- Platform: linux\n- Date: 2026-03-04$/,
    );
    expect(text).toContain("Instructions from /w/p/AGENTS.md:\n\nproject rule");
    expect(text.split("\n\n").join("\n\n")).toBe(prompt.sections.map((section) => section.text).join("\n\n"));
  });

  it("replaces arbor's instructions with --system-prompt and says where a file was cut", () => {
    const prompt = buildSystemPrompt({
      cwd: "/w",
      custom: { text: "You review code.\n", source: "/w/prompt.md" },
      contextFiles: [file("/w/AGENTS.md", "x", true)],
    });
    expect(prompt.text).not.toContain("You are arbor");
    expect(prompt.sections[0]).toEqual({ kind: "custom", source: "/w/prompt.md", text: "You review code." });
    expect(prompt.sections[1]?.text).toContain(
      "[arbor: only the first 1 characters of this 100000-byte file are included]",
    );
  });

  it("is arbor's instructions and the environment alone without context files", () => {
    const prompt = buildSystemPrompt({ cwd: "/w" });
    expect(prompt.sections.map((section) => section.kind)).toEqual(["base", "environment"]);
    expect(prompt.text).not.toContain("Project context");
  });
});
