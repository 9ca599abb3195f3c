import { describe, expect, it } from "vitest";
import { loadFixture } from "../internal/testing/load-fixture";
import { assistant, toolCall, toolResult, user } from "../internal/testing/messages";
import { type CompactionPreparation, prepareCompaction } from "../prepare/prepare-compaction";
import { summarizeOffline } from "./summarize-offline";

const HEADINGS = [
  "## Goal",
  "## Constraints & Preferences",
  "## Progress",
  "### Done",
  "### In Progress",
  "### Blocked",
  "## Key Decisions",
  "## Next Steps",
  "## Critical Context",
];

function prepare(fixture: string, leaf: string, keepRecentTokens: number): CompactionPreparation {
  const session = loadFixture(fixture);
  const preparation = prepareCompaction(session.branch(leaf), {
    enabled: true,
    reserveTokens: 0,
    keepRecentTokens,
  });
  if (!preparation) throw new Error(`nothing to compact in ${fixture} at ${leaf}`);
  return preparation;
}

function section(summary: string, heading: string): string {
  const start = summary.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`missing ${heading}`);
  const rest = summary.slice(start + heading.length + 1);
  const next = rest.search(/\n#{2,3} /);
  return next < 0 ? rest : rest.slice(0, next);
}

describe("summarizeOffline on a realistic coding session", () => {
  const summary = summarizeOffline(prepare("coding-session.jsonl", "ast00013", 0));

  it("has every heading of the structured format, in order", () => {
    const positions = HEADINGS.map((heading) => summary.indexOf(`${heading}\n`));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("states the goal and the user's constraints", () => {
    expect(section(summary, "## Goal")).toContain("parses ISO dates with offsets");
    expect(section(summary, "## Goal")).toContain("Later request: Also add a test for leap years");
    const constraints = section(summary, "## Constraints & Preferences");
    expect(constraints).toContain("Don't change the public API of parseDate.");
    expect(constraints).toContain("Use vitest, never jest.");
    expect(constraints).toContain("It must stay synchronous.");
  });

  it("records progress from tool activity and answers", () => {
    const done = section(summary, "### Done");
    expect(done).toContain("Modified `src/date.ts`, `test/date.test.ts`, `src/format.ts`");
    expect(done).toContain("Ran successfully: `npx vitest run test/date.test.ts`, `npx vitest run`");
    expect(done).toContain("Fixed: parseDate now keeps the UTC offset");
    expect(done).not.toContain("Read `src/date.ts`");
  });

  it("puts the unresolved error in Blocked and Critical Context, and not the resolved one", () => {
    const blocked = section(summary, "### Blocked");
    expect(blocked).toContain(
      "`bash` `npx tsc --noEmit` failed: src/format.ts(2,10): error TS2304: Cannot find name 'Intl'.",
    );
    expect(blocked).not.toContain("AssertionError");
    expect(section(summary, "## Critical Context")).toContain("error TS2304");
  });

  it("turns the open request, the open error and the last assistant text into next steps", () => {
    const next = section(summary, "## Next Steps");
    expect(next).toMatch(/^1\. Continue the current request: "Now refactor parseDate/);
    expect(next).toContain("Resolve: `bash` `npx tsc --noEmit` failed");
    expect(next).toContain(
      'Pick up from the last assistant message: "I decided to use a cached Intl.DateTimeFormat',
    );
  });

  it("keeps decisions stated by the assistant", () => {
    expect(section(summary, "## Key Decisions")).toContain(
      "cached Intl.DateTimeFormat instance rather than creating one per call",
    );
  });

  it("is deterministic", () => {
    expect(summarizeOffline(prepare("coding-session.jsonl", "ast00013", 0))).toBe(summary);
  });
});

describe("summarizeOffline in other situations", () => {
  it("marks the split turn's request as in progress", () => {
    const preparation = prepare("split-turn.jsonl", "asx00013", 300);
    expect(preparation.isSplitTurn).toBe(true);
    const summary = summarizeOffline(preparation);
    expect(section(summary, "### In Progress")).toContain(
      "Audit every module under src/ for unsafe eval calls",
    );
    expect(section(summary, "### Done")).toContain("`src/mod4.ts`");
  });

  it("folds in the previous summary", () => {
    const preparation = prepare("nested-compactions.jsonl", "asf00009", 0);
    expect(preparation.previousSummary).toBe("Extension summary.");
    const previous = summarizeOffline([
      user("Port the parser to Rust. Never use unsafe."),
      assistant("Started."),
    ]);
    const merged = summarizeOffline([user("Now add benchmarks."), assistant("Benchmarks added.")], {
      previousSummary: previous,
    });
    expect(section(merged, "## Goal")).toContain("Port the parser to Rust.");
    expect(section(merged, "## Goal")).toContain("Later request: Now add benchmarks.");
    expect(section(merged, "## Constraints & Preferences")).toContain("Never use unsafe.");
    expect(section(merged, "### Done")).toContain("Benchmarks added.");
  });

  it("reports failing shell runs and model errors", () => {
    const summary = summarizeOffline([
      user("Run the tests"),
      {
        role: "bashExecution",
        command: "npm test",
        output: "1 failing\nError: expected 2",
        exitCode: 1,
        cancelled: false,
        truncated: false,
        timestamp: 1,
      },
      assistant("", { stopReason: "error", errorMessage: "overloaded_error: try again" }),
    ]);
    const blocked = section(summary, "### Blocked");
    expect(blocked).toContain("`bash` `npm test` failed: exit code 1; Error: expected 2");
    expect(blocked).toContain("The model request failed: overloaded_error: try again");
  });

  it("records the requested focus and clears a resolved failure", () => {
    const summary = summarizeOffline(
      [
        user("Fix the build"),
        assistant([toolCall("1", "bash", { command: "make" })], { stopReason: "toolUse" }),
        toolResult("1", "bash", "make: *** [all] Error 2", true),
        assistant([toolCall("2", "bash", { command: "make" })], { stopReason: "toolUse" }),
        toolResult("2", "bash", "ok"),
        assistant("Build fixed."),
      ],
      { customInstructions: "the Makefile changes" },
    );
    expect(section(summary, "### Blocked")).toContain("(nothing blocked)");
    expect(section(summary, "## Critical Context")).toContain("Requested focus: the Makefile changes");
    expect(section(summary, "### In Progress")).toContain("(nothing in progress)");
  });
});
