/**
 * The offline summarizer on the repository's example session (examples/todo-api-pagination.jsonl),
 * opened through @arbor/session-store and cut the way `arbor compact --offline --keep-recent-tokens
 * 3000` cuts it. The session has a left branch (its summary sits in the middle of the range), tool
 * failures fixed later, a 529 provider error that was retried, and long markdown answers.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSessionStore } from "@arbor/session-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CompactionPreparation, prepareCompaction } from "../prepare/prepare-compaction";
import { compact } from "../summary/compact";
import { summarizeOffline } from "./summarize-offline";

const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");
const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
const README = path.resolve(import.meta.dirname, "../../docs/reference.md");

function section(summary: string, heading: string): string {
  const start = summary.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`missing ${heading}`);
  const rest = summary.slice(start + heading.length + 1);
  const next = rest.search(/\n#{2,3} |\n<(read|modified)-files>/);
  return (next < 0 ? rest : rest.slice(0, next)).trim();
}

function items(text: string): string[] {
  return text.split("\n").filter((line) => /^(-|\d+\.) /.test(line));
}

let dir: string;
let preparation: CompactionPreparation;
let summary: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "arbor-offline-"));
  const file = path.join(dir, "session.jsonl");
  copyFileSync(EXAMPLE, file);
  const store = openSessionStore(file);
  try {
    const prepared = prepareCompaction(store.getBranch(), {
      enabled: true,
      reserveTokens: 0,
      keepRecentTokens: 3000,
    });
    if (!prepared) throw new Error("nothing to compact in the example session");
    preparation = prepared;
  } finally {
    store.close();
  }
  summary = summarizeOffline(preparation);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("summarizeOffline on the example session", () => {
  it("summarizes a range that holds a branch summary, a retried 529 and fixed test runs", () => {
    const roles = preparation.messagesToSummarize.map((message) => message.role);
    expect(roles).toContain("branchSummary");
    expect(preparation.isSplitTurn).toBe(true);
  });

  it("leads the goal with the user's tasks in order and marks the current one", () => {
    expect(items(section(summary, "## Goal"))).toEqual([
      "- Before we change anything: install the dependencies and check that the type check and the tests pass on main.",
      expect.stringMatching(/^- Follow-up: GET \/todos returns every todo at once .* and add tests\.$/),
      expect.stringMatching(/^- Follow-up: Ops wants to tune the default page size .* on a bad value\.$/),
      "- Current request (in progress): Document the pagination and TODO_PAGE_SIZE in the README, then commit everything.",
    ]);
  });

  it("keeps the left branch out of the goal, as context and a decision", () => {
    expect(section(summary, "## Goal")).not.toContain("cursor");
    expect(summary).not.toContain("Later request");
    expect(section(summary, "## Critical Context")).toContain(
      "- Explored on another branch and abandoned: Compare cursor-based pagination (`?after=<id>&limit=`) with the offset pagination just added to GET /todos.",
    );
    expect(section(summary, "## Critical Context")).toContain(
      "On that branch: Committed offset pagination as a3f9c12",
    );
    expect(section(summary, "## Key Decisions")).toContain("**Stay with offset pagination**");
    // The branch's own constraints and next step are not the main line's.
    expect(summary).not.toContain("Continue from the committed offset pagination");
  });

  it("lists no resolved failure in Blocked, Next Steps or Critical Context", () => {
    expect(section(summary, "### Blocked")).toBe("- (nothing blocked)");
    for (const heading of ["## Next Steps", "## Critical Context"]) {
      const text = section(summary, heading);
      expect(text).not.toContain("npm test");
      expect(text).not.toMatch(/overloaded/i);
      expect(text).not.toContain("failed");
    }
    expect(section(summary, "### Done")).toContain(
      "- [x] Failures fixed along the way: `edit` `src/server.ts`; `npx tsc --noEmit`; `npm test` ×2; retried provider error (overloaded_error: Overloaded (529))",
    );
  });

  it("has the open request as its only next step (no provider error, no quoted answer)", () => {
    expect(items(section(summary, "## Next Steps"))).toEqual([
      '1. Continue the current request: "Document the pagination and TODO_PAGE_SIZE in the README, then commit everything."',
    ]);
  });

  it("records answers by their lead sentences, without markdown fragments", () => {
    const done = items(section(summary, "### Done"));
    expect(done.slice(0, 3)).toEqual([
      "- [x] All good: dependencies installed (64 packages, no vulnerabilities), the type check is clean and the 6 tests in `test/server.test.ts` pass.",
      "- [x] Pagination is in place and all 14 tests pass.",
      "- [x] `TODO_PAGE_SIZE` now sets the default page size; 19 tests pass and the type check is clean.",
    ]);
    expect(section(summary, "### Done")).not.toContain("**");
    expect(section(summary, "### Done")).not.toContain("Behaviour of");
  });

  it("is deterministic", () => {
    expect(summarizeOffline(preparation)).toBe(summary);
  });

  it("is the example printed in the package reference (docs/reference.md)", async () => {
    const readme = readFileSync(README, "utf8");
    const offline = readme.slice(readme.indexOf("## Offline summarizer"));
    const block = /```markdown\n([\s\S]*?)\n```/.exec(offline)?.[1];
    expect(block).toBe((await compact(preparation)).summary);
  });
});
