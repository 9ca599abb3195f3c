import type { AgentMessage } from "@arbor/agent-loop";
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
    expect(section(summary, "## Goal")).toContain("- Follow-up: Also add a test for leap years");
    expect(section(summary, "## Goal")).toContain(
      "- Current request (in progress): Now refactor parseDate to use Intl.DateTimeFormat",
    );
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
    expect(section(merged, "## Goal")).toBe(
      "- Port the parser to Rust. Never use unsafe.\n- Latest request: Now add benchmarks.\n",
    );
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

const BRANCH_SUMMARY = `The user explored a different conversation branch before returning here.
Summary of that exploration:

## Goal
Compare cursor-based pagination with the offset pagination.

## Constraints & Preferences
- Keep the offset version safe

## Progress
### Done
- [x] Committed offset pagination as a3f9c12
- [x] Reverted the cursor prototype

## Key Decisions
- **Stay with offset pagination**: the list screen needs page counts

## Next Steps
1. Continue from the committed offset pagination`;

function branchSummary(summary: string): AgentMessage {
  return { role: "branchSummary", summary, fromId: "e0195a14", timestamp: 4 };
}

function bash(command: string, output: string, exitCode: number): AgentMessage {
  return {
    role: "bashExecution",
    command,
    output,
    exitCode,
    cancelled: false,
    truncated: false,
    timestamp: 5,
  };
}

describe("summarizeOffline: the goal", () => {
  const messages: AgentMessage[] = [
    user("Hi! Add pagination to GET /todos with ?limit= and ?offset=."),
    assistant("Pagination is in place and all 14 tests pass."),
    branchSummary(BRANCH_SUMMARY),
    user("Make the default page size configurable with TODO_PAGE_SIZE."),
    assistant("TODO_PAGE_SIZE now sets the default page size."),
    user("Great. Document the pagination in the README."),
    assistant([toolCall("r1", "read", { path: "README.md" })], { stopReason: "toolUse" }),
    toolResult("r1", "read", "# todo-api"),
  ];
  const summary = summarizeOffline(messages);

  it("lists the user's tasks in order, first unlabelled, the open one marked current", () => {
    expect(section(summary, "## Goal")).toBe(
      [
        "- Add pagination to GET /todos with ?limit= and ?offset=.",
        "- Follow-up: Make the default page size configurable with TODO_PAGE_SIZE.",
        "- Current request (in progress): Document the pagination in the README.",
        "",
      ].join("\n"),
    );
  });

  it("marks the newest task as latest once it is answered", () => {
    const answered = summarizeOffline([...messages, assistant("Documented in README.md.")]);
    expect(section(answered, "## Goal")).toContain(
      "- Latest request: Document the pagination in the README.",
    );
    expect(section(answered, "### In Progress")).toContain("(nothing in progress)");
  });

  it("puts a left branch into Critical Context and Key Decisions, never into the goal", () => {
    expect(section(summary, "## Goal")).not.toContain("cursor");
    expect(section(summary, "## Critical Context")).toContain(
      "- Explored on another branch and abandoned: Compare cursor-based pagination with the offset pagination.",
    );
    expect(section(summary, "## Critical Context")).toContain(
      "- On that branch: Committed offset pagination as a3f9c12. Reverted the cursor prototype.",
    );
    expect(section(summary, "## Key Decisions")).toContain("**Stay with offset pagination**");
    expect(section(summary, "## Constraints & Preferences")).not.toContain("Keep the offset version safe");
    expect(section(summary, "## Next Steps")).not.toContain("committed offset pagination");
  });

  it("keeps a branch summary without the structured format as one context line", () => {
    const plain = summarizeOffline([user("Fix the bug."), branchSummary("Tried a rewrite in Go; too slow.")]);
    expect(section(plain, "## Critical Context")).toContain(
      "- Explored on another branch and abandoned: Tried a rewrite in Go; too slow.",
    );
    expect(section(plain, "## Goal")).toBe("Fix the bug.\n");
  });

  it("carries an earlier checkpoint's goal over and continues its open request", () => {
    const first = summarizeOffline(messages);
    const second = summarizeOffline(
      [assistant("The README now documents pagination."), user("Now commit everything.")],
      { previousSummary: first },
    );
    expect(section(second, "## Goal")).toBe(
      [
        "- Add pagination to GET /todos with ?limit= and ?offset=.",
        "- Follow-up: Make the default page size configurable with TODO_PAGE_SIZE.",
        "- Follow-up: Document the pagination in the README.",
        "- Current request (in progress): Now commit everything.",
        "",
      ].join("\n"),
    );
    // The answer closed the carried-over request: it is done, no longer in progress.
    expect(section(second, "### Done")).toContain("- [x] The README now documents pagination.");
    expect(section(second, "### In Progress")).toBe("- [ ] Now commit everything.\n");
    expect(section(second, "## Critical Context")).toContain("Explored on another branch and abandoned");
  });

  it("merges an earlier checkpoint's activity lines and drops its stale next steps", () => {
    const first = summarizeOffline([
      user("Make the page size configurable."),
      bash("npm test", "Error: expected 0 to throw", 1),
      bash("npm test", "ok", 0),
      assistant([toolCall("w1", "write", { path: "src/config.ts" })], { stopReason: "toolUse" }),
      toolResult("w1", "write", "Created src/config.ts"),
      assistant("TODO_PAGE_SIZE now sets the page size."),
      user("Document it in the README."),
    ]);
    expect(section(first, "## Next Steps")).toContain("Continue the current request");
    const second = summarizeOffline(
      [
        bash("npm test", "Error: link parsing", 1),
        bash("npm test && npx tsc --noEmit", "ok", 0),
        assistant([toolCall("e1", "edit", { path: "README.md" })], { stopReason: "toolUse" }),
        toolResult("e1", "edit", "Edited README.md"),
        assistant("The README documents the page size."),
      ],
      { previousSummary: first },
    );
    expect(section(second, "### Done")).toBe(
      [
        "- [x] TODO_PAGE_SIZE now sets the page size.",
        "- [x] The README documents the page size.",
        "- [x] Failures fixed along the way: `npm test` ×2",
        "- [x] Modified `src/config.ts`, `README.md`",
        "- [x] Ran successfully: `npm test`, `npm test && npx tsc --noEmit`",
        "",
      ].join("\n"),
    );
    expect(section(second, "## Next Steps")).toBe(
      "1. The latest request was answered (see Done); wait for the user's next instruction.\n",
    );
  });

  it("keeps an earlier checkpoint's own next steps while the work goes on", () => {
    const previous = "## Goal\nPort the parser.\n\n## Next Steps\n1. Port the lexer\n2. Port the tests";
    const merged = summarizeOffline(
      [
        assistant(
          [{ type: "text", text: "Porting the lexer now." }, toolCall("1", "read", { path: "lexer.c" })],
          { stopReason: "toolUse" },
        ),
      ],
      { previousSummary: previous },
    );
    expect(section(merged, "## Next Steps")).toBe(
      '1. Pick up from the last assistant message: "Porting the lexer now."\n2. Port the lexer\n3. Port the tests\n',
    );
  });

  it("keeps an earlier checkpoint without the structured format", () => {
    const merged = summarizeOffline([user("Go on with the port.")], {
      previousSummary: "Extension summary.",
    });
    expect(section(merged, "## Critical Context")).toContain("- Earlier summary: Extension summary.");
  });
});

describe("summarizeOffline: resolved failures", () => {
  it("resolves a failed command by a later successful && chain that contains it", () => {
    const summary = summarizeOffline([
      user("Make TODO_PAGE_SIZE configurable."),
      bash("npm test", "FAIL test/config.test.ts\nAssertionError: expected [Function] to throw an error", 1),
      bash("npm test && npx tsc --noEmit", "Tests 19 passed", 0),
      assistant("Done; 19 tests pass."),
    ]);
    expect(section(summary, "### Blocked")).toBe("- (nothing blocked)\n");
    expect(section(summary, "## Critical Context")).not.toContain("npm test");
    expect(section(summary, "## Next Steps")).not.toContain("Resolve");
    expect(section(summary, "### Done")).toContain("- [x] Failures fixed along the way: `npm test`\n");
  });

  it("keeps a failed chain blocked until every part of it succeeded", () => {
    const failed = [
      user("Check everything."),
      bash("npm test && npx tsc --noEmit", "error TS2322: Type 'x' is not assignable", 2),
      bash("npm test", "Tests 19 passed", 0),
    ];
    expect(section(summarizeOffline(failed), "### Blocked")).toContain(
      "`bash` `npm test && npx tsc --noEmit` failed: exit code 2; error TS2322",
    );
    const fixed = summarizeOffline([...failed, bash("npx tsc --noEmit", "", 0)]);
    expect(section(fixed, "### Blocked")).toBe("- (nothing blocked)\n");
  });

  it("resolves a failed edit by a later write of the same file", () => {
    const summary = summarizeOffline([
      user("Update the server."),
      assistant([toolCall("e1", "edit", { path: "src/server.ts" })], { stopReason: "toolUse" }),
      toolResult("e1", "edit", "oldText was not found in src/server.ts", true),
      assistant([toolCall("w1", "write", { path: "src/server.ts" })], { stopReason: "toolUse" }),
      toolResult("w1", "write", "Wrote src/server.ts"),
    ]);
    expect(section(summary, "### Blocked")).toBe("- (nothing blocked)\n");
  });

  it("treats a provider error followed by a response as resolved, and never as a next step", () => {
    const summary = summarizeOffline([
      user("Make TODO_PAGE_SIZE configurable."),
      assistant("", { stopReason: "error", errorMessage: "overloaded_error: Overloaded (529)" }),
      assistant([toolCall("w1", "write", { path: "src/config.ts" })], { stopReason: "toolUse" }),
      toolResult("w1", "write", "Created src/config.ts"),
    ]);
    expect(section(summary, "### Blocked")).toBe("- (nothing blocked)\n");
    expect(section(summary, "## Critical Context")).not.toMatch(/overloaded/i);
    expect(section(summary, "### Done")).toContain(
      "Failures fixed along the way: retried provider error (overloaded_error: Overloaded (529))",
    );
    const unanswered = summarizeOffline([
      user("Make TODO_PAGE_SIZE configurable."),
      assistant("", { stopReason: "error", errorMessage: "overloaded_error: Overloaded (529)" }),
    ]);
    expect(section(unanswered, "### Blocked")).toContain("The model request failed: overloaded_error");
    expect(section(unanswered, "## Next Steps")).not.toMatch(/overloaded|model request/);
  });

  it("lets a later success resolve a failure carried over from an earlier checkpoint", () => {
    const first = summarizeOffline([user("Run the tests."), bash("npm test", "Error: expected 2", 1)]);
    expect(section(first, "### Blocked")).toContain("`bash` `npm test` failed");
    const second = summarizeOffline([bash("npm test", "ok", 0), assistant("Tests pass now.")], {
      previousSummary: first,
    });
    expect(section(second, "### Blocked")).toBe("- (nothing blocked)\n");
    expect(section(second, "## Critical Context")).not.toContain("npm test");
  });
});

const LONG_ANSWER = `Pagination is in place and all 14 tests pass.

**Behaviour of \`GET /todos\`**
- \`?limit=\` (1–200, default 50) and \`?offset=\` (≥ 0, default 0); todos stay in id order
- The body is still a plain array, so existing clients keep working

**Files**
- \`src/http/pagination.ts\` (new): \`parsePagination\`

Nothing is committed yet.`;

describe("summarizeOffline: next steps and answers", () => {
  it("does not quote a final answer that came before the open request", () => {
    const summary = summarizeOffline([
      user("Add pagination."),
      assistant(LONG_ANSWER),
      user("Document it in the README."),
    ]);
    expect(section(summary, "## Next Steps")).toBe(
      '1. Continue the current request: "Document it in the README."\n',
    );
  });

  it("quotes the first sentences of a message in the middle of the work, cut at a sentence", () => {
    const text = `${"The server's Link targets are relative, so they must be resolved against the API URL. ".repeat(3)}Fixing that:\n- one\n- two`;
    const summary = summarizeOffline([
      user("Make the digest follow the pages."),
      assistant([{ type: "text", text }, toolCall("e1", "edit", { path: "scripts/digest.ts" })], {
        stopReason: "toolUse",
      }),
    ]);
    const steps = section(summary, "## Next Steps").split("\n");
    expect(steps[1]).toBe(
      `2. Pick up from the last assistant message: "${"The server's Link targets are relative, so they must be resolved against the API URL. ".repeat(2).trim()}"`,
    );
  });

  it("takes a next action stated in the last answer when no request is open", () => {
    const summary = summarizeOffline([
      user("Refactor formatDate."),
      assistant(
        "Type checking fails: TS2304 Cannot find name 'Intl'.\n\n- src/format.ts line 2\n\nNext I'll add ES2020 to compilerOptions.lib and re-run tsc.",
      ),
    ]);
    expect(section(summary, "## Next Steps")).toBe(
      "1. Pick up from the last assistant message: \"Type checking fails: TS2304 Cannot find name 'Intl'. Next I'll add ES2020 to compilerOptions.lib and re-run tsc.\"\n",
    );
  });

  it("says the latest request was answered when nothing else is left", () => {
    const summary = summarizeOffline([user("Add pagination."), assistant(LONG_ANSWER)]);
    expect(section(summary, "## Next Steps")).toBe(
      "1. The latest request was answered (see Done); wait for the user's next instruction.\n",
    );
  });

  it("records an answer by its lead sentence, without markdown emphasis or list fragments", () => {
    const summary = summarizeOffline([user("Add pagination."), assistant(LONG_ANSWER)]);
    expect(section(summary, "### Done")).toBe("- [x] Pagination is in place and all 14 tests pass.\n");
  });

  it("strips emphasis and a redundant Done: from an answer, and cuts a long one at a word", () => {
    const long = `**Done**: the README now documents ${"every query parameter and header ".repeat(12)}in detail.`;
    const summary = summarizeOffline([user("Document it."), assistant(long)]);
    const done = section(summary, "### Done").trim();
    expect(done).toBe(
      `- [x] The README now documents ${"every query parameter and header ".repeat(6)}every…`,
    );
    expect(done.length).toBeLessThanOrEqual("- [x] ".length + 240);
  });
});
