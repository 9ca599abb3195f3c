/**
 * The recovery special case of the projected cut point (pi 1.6.0, see searchProjectedCutPoint): after
 * an overflow or a truncated response, the failed assistant is omitted with `context_edit(…, null)`;
 * when the budget is exceeded and the suffix after the cut holds nothing visible but that omitted
 * attempt, the cut moves one entry later so that the unsent input is summarized. Driven through
 * `prepareCompaction`, the function that uses it.
 */
import type { AgentMessage } from "@arbor/agent-loop";
import type { SessionEntry } from "@arbor/session-store";
import { describe, expect, it } from "vitest";
import { BranchProjection } from "../internal/branch-projection";
import { EntryChain } from "../internal/testing/entries";
import { assistant, toolCall, toolResult, user } from "../internal/testing/messages";
import { defaultTokenCounter } from "../tokens/token-counter";
import { findProjectedCutPoint, searchProjectedCutPoint } from "./find-projected-cut-point";
import { type CompactionPreparation, prepareCompaction } from "./prepare-compaction";

const settings = (keepRecentTokens: number) => ({ enabled: true, reserveTokens: 16384, keepRecentTokens });
/** 4000 characters: 1000 tokens with the chars/4 estimate, more than the 500-token budget used below. */
const BIG_INPUT = `please read this ${"x".repeat(3983)}`;

function omit(chain: EntryChain, id: string, targetId: string): SessionEntry {
  return chain.add(id, { type: "context_edit", targetId, replacement: null });
}

function replace(chain: EntryChain, id: string, targetId: string, content: string): SessionEntry {
  return chain.add(id, { type: "context_edit", targetId, replacement: { content } });
}

function texts(messages: readonly AgentMessage[]): string[] {
  return messages.map((message) => {
    const content = (message as { content?: unknown }).content;
    if (typeof content === "string") return content.slice(0, 20);
    if (Array.isArray(content))
      return content
        .map((block) => block.text ?? block.type)
        .join("")
        .slice(0, 20);
    return message.role;
  });
}

function shape(preparation: CompactionPreparation | undefined) {
  if (preparation === undefined) return undefined;
  return {
    firstKept: preparation.firstKeptEntryId,
    split: preparation.isSplitTurn,
    turnStart: preparation.turnStartEntryId,
    summarized: texts(preparation.messagesToSummarize),
    prefix: texts(preparation.turnPrefixMessages),
  };
}

/** u1, a1, then the big input u2 and its failed response a2 (stopped at `length`), omitted by e1. */
function recoveredChain(): EntryChain {
  const chain = new EntryChain();
  chain.message("u1", user("first question"));
  chain.message("a1", assistant("first answer"));
  chain.message("u2", user(BIG_INPUT));
  chain.message("a2", assistant("cut of", { stopReason: "length" }));
  omit(chain, "e1", "a2");
  return chain;
}

/** What the advance gives on recoveredChain (pi's verified case): the unsent input is the split turn's prefix. */
const ADVANCED = {
  firstKept: "a2",
  split: true,
  turnStart: "u2",
  summarized: ["first question", "first answer"],
  prefix: ["please read this xxx"],
};
/** Without the advance, the cut stays at the unsent input. */
const NOT_ADVANCED = {
  firstKept: "u2",
  split: false,
  turnStart: undefined,
  summarized: ["first question", "first answer"],
  prefix: [],
};

describe("the recovery advance of the projected cut point", () => {
  it("moves the cut past the unsent input when the suffix is only the omitted response", () => {
    expect(shape(prepareCompaction(recoveredChain().entries, settings(500)))).toEqual(ADVANCED);
  });

  it("also when metadata entries and a null edit of an entry before the cut follow", () => {
    const chain = recoveredChain();
    chain.add("m1", { type: "model_change", provider: "anthropic", modelId: "claude-test" });
    chain.add("x1", { type: "custom", customType: "note", data: {} });
    omit(chain, "e2", "a1");
    expect(shape(prepareCompaction(chain.entries, settings(500)))).toEqual({
      ...ADVANCED,
      summarized: ["first question"],
    });
  });

  it("also when the omitted response is a tool call omitted together with its result", () => {
    const chain = new EntryChain();
    chain.message("u1", user("first question"));
    chain.message("a1", assistant("first answer"));
    chain.message("u2", user(BIG_INPUT));
    chain.message("a2", assistant([toolCall("c2", "read", { path: "x" })], { stopReason: "length" }));
    chain.message("t2", toolResult("c2", "read", "error: cut short", true));
    omit(chain, "e1", "a2");
    omit(chain, "e2", "t2");
    expect(shape(prepareCompaction(chain.entries, settings(500)))).toEqual(ADVANCED);
  });

  it("also when an earlier replacement of the omitted response is in the suffix (the latest edit wins)", () => {
    const chain = new EntryChain();
    chain.message("u1", user("first question"));
    chain.message("a1", assistant("first answer"));
    chain.message("u2", user(BIG_INPUT));
    chain.message("a2", assistant("cut of", { stopReason: "length" }));
    replace(chain, "e0", "a2", "a shorter reply");
    omit(chain, "e1", "a2");
    expect(shape(prepareCompaction(chain.entries, settings(500)))).toEqual(ADVANCED);
  });

  it("also when the unsent input is the only cut point (nothing before it to summarize)", () => {
    const chain = new EntryChain();
    chain.message("u2", user(BIG_INPUT));
    chain.message("a2", assistant("cut of", { stopReason: "length" }));
    omit(chain, "e1", "a2");
    expect(shape(prepareCompaction(chain.entries, settings(500)))).toEqual({
      ...ADVANCED,
      summarized: [],
    });
  });

  it("not when the budget is not exceeded", () => {
    const chain = new EntryChain();
    chain.message("u2", user(BIG_INPUT));
    chain.message("a2", assistant("cut of", { stopReason: "length" }));
    omit(chain, "e1", "a2");
    // The first cut point is the cut: nothing to summarize.
    expect(prepareCompaction(chain.entries, settings(1_000_000))).toBeUndefined();
    expect(shape(prepareCompaction(recoveredChain().entries, settings(1_000_000)))).toBeUndefined();
  });

  it("not when something visible follows the omitted response", () => {
    const chain = recoveredChain();
    chain.message("u3", user("go on"));
    expect(shape(prepareCompaction(chain.entries, settings(500)))).toEqual(NOT_ADVANCED);
  });

  it("not when the omitted entries hold no assistant response", () => {
    const withResult = new EntryChain();
    withResult.message("u1", user("first question"));
    withResult.message("a1", assistant("first answer"));
    withResult.message("u2", user(BIG_INPUT));
    withResult.message("t2", toolResult("c2", "read", "orphan result"));
    omit(withResult, "e1", "t2");
    expect(shape(prepareCompaction(withResult.entries, settings(500)))).toEqual(NOT_ADVANCED);

    const withNote = new EntryChain();
    withNote.message("u1", user("first question"));
    withNote.message("a1", assistant("first answer"));
    withNote.message("u2", user(BIG_INPUT));
    withNote.add("n2", { type: "custom_message", customType: "note", content: "a note", display: true });
    omit(withNote, "e1", "n2");
    expect(shape(prepareCompaction(withNote.entries, settings(500)))).toEqual(NOT_ADVANCED);
  });

  it("not when the suffix replaces an entry outside it (pi's verified case: a replacement of the input)", () => {
    const chain = recoveredChain();
    replace(chain, "e2", "u1", "an edited first question");
    expect(shape(prepareCompaction(chain.entries, settings(500)))).toEqual({
      ...NOT_ADVANCED,
      summarized: ["an edited first ques", "first answer"],
    });
  });

  it("not when an older compaction kept by the latest one is in the suffix", () => {
    const chain = new EntryChain();
    chain.message("u1", user("first question"));
    chain.message("u2", user(BIG_INPUT));
    chain.message("a2", assistant("cut of", { stopReason: "length" }));
    omit(chain, "e1", "a2");
    chain.add("c1", { type: "compaction", summary: "older", firstKeptEntryId: "u2", tokensBefore: 10 });
    chain.add("c2", { type: "compaction", summary: "latest", firstKeptEntryId: "u2", tokensBefore: 10 });
    chain.add("m1", { type: "model_change", provider: "anthropic", modelId: "claude-test" });
    // Without the advance the cut is the first kept entry: nothing new to summarize.
    expect(prepareCompaction(chain.entries, settings(500))).toBeUndefined();
  });
});

describe("the recovery advance: which edits block it", () => {
  it("a replacement edit before the cut does not block it", () => {
    const chain = new EntryChain();
    chain.message("u1", user("first question"));
    chain.message("a1", assistant("first answer"));
    replace(chain, "e0", "u1", "an edited first question");
    chain.message("u2", user(BIG_INPUT));
    chain.message("a2", assistant("cut of", { stopReason: "length" }));
    omit(chain, "e1", "a2");
    expect(shape(prepareCompaction(chain.entries, settings(500)))).toEqual({
      ...ADVANCED,
      summarized: ["an edited first ques", "first answer"],
    });
  });

  it("a replacement edit of a metadata entry in the suffix blocks it (that entry is not an omitted one)", () => {
    const chain = recoveredChain();
    chain.add("m1", { type: "model_change", provider: "anthropic", modelId: "claude-test" });
    // Not something the store writes (it refuses edits of metadata), but a hostile file may hold it.
    replace(chain, "e2", "m1", "odd");
    expect(shape(prepareCompaction(chain.entries, settings(500)))).toEqual(NOT_ADVANCED);
  });
});

describe("searchProjectedCutPoint (the index search)", () => {
  it("a range without a cut point keeps everything from its start", () => {
    const chain = new EntryChain();
    chain.message("u1", user("hello"));
    chain.message("t1", toolResult("c1", "read", "x".repeat(400)));
    const projection = new BranchProjection(chain.entries, defaultTokenCounter);
    expect(searchProjectedCutPoint(projection, 1, 2, 10)).toEqual({
      firstKeptEntryIndex: 1,
      turnStartIndex: -1,
      isSplitTurn: false,
    });
  });
});

describe("findProjectedCutPoint (by entry)", () => {
  it("agrees with prepareCompaction's firstKeptEntryId on a recovered branch", () => {
    const entries = recoveredChain().entries;
    const preparation = prepareCompaction(entries, settings(500));
    const cut = findProjectedCutPoint(entries, 500);
    expect(cut.firstKeptEntryId).toBe(preparation?.firstKeptEntryId);
    expect(cut.isSplitTurn).toBe(preparation?.isSplitTurn);
  });

  it("returns no entry for an empty branch", () => {
    expect(findProjectedCutPoint([], 100)).toEqual({
      firstKeptEntryId: undefined,
      turnStartEntryId: undefined,
      isSplitTurn: false,
    });
  });
});
