import { describe, expect, it } from "vitest";
import { EntryChain } from "../internal/testing/entries";
import { assistant, toolResult, user } from "../internal/testing/messages";
import { findCutPoint, findTurnStartIndex } from "./find-cut-point";

describe("findCutPoint", () => {
  it("a range without a cut point keeps everything from its start", () => {
    const chain = new EntryChain();
    chain.message("u1", user("hello"));
    chain.message("t1", toolResult("c1", "read", "x".repeat(400)));
    chain.message("t2", toolResult("c2", "read", "y".repeat(400)));
    expect(findCutPoint(chain.entries, 1, 3, 10)).toEqual({
      firstKeptEntryIndex: 1,
      turnStartIndex: -1,
      isSplitTurn: false,
    });
  });

  it("a message entry holding a compaction summary is a cut point and starts a turn", () => {
    const chain = new EntryChain();
    chain.message("u1", user("x".repeat(400)));
    chain.add("s1", {
      type: "message",
      message: { role: "compactionSummary", summary: "s", tokensBefore: 1, timestamp: 1 },
    });
    chain.message("t1", toolResult("c1", "read", "y".repeat(400)));
    expect(findCutPoint(chain.entries, 0, 3, 50)).toEqual({
      firstKeptEntryIndex: 1,
      turnStartIndex: -1,
      isSplitTurn: false,
    });
    expect(findTurnStartIndex(chain.entries, 2, 0)).toBe(1);
  });

  it("with keepRecentTokens 0 an empty trailing message does not count: the last non-empty entry's cut point", () => {
    const chain = new EntryChain();
    chain.message("u1", user("question"));
    chain.message("a1", assistant("answer"));
    chain.message("u2", user(""));
    expect(findCutPoint(chain.entries, 0, 3, 0)).toEqual({
      firstKeptEntryIndex: 1,
      turnStartIndex: 0,
      isSplitTurn: true,
    });
  });
});
