import type { AgentMessage } from "@arbor/agent-loop";
import { describe, expect, it } from "vitest";
import { EntryChain } from "../internal/testing/entries";
import { assistant, toolCall, toolResult, usage, user } from "../internal/testing/messages";
import { estimateTokens } from "../tokens/estimate-tokens";
import type { TokenCounter } from "../tokens/token-counter";
import { prepareCompaction } from "./prepare-compaction";

const settings = (keepRecentTokens: number) => ({ enabled: true, reserveTokens: 16384, keepRecentTokens });

function countingCounter(): TokenCounter & { calls: number } {
  const counter = {
    name: "counting",
    calls: 0,
    countMessage(message: AgentMessage) {
      counter.calls++;
      return estimateTokens(message);
    },
  };
  return counter;
}

function addTurn(chain: EntryChain, n: number) {
  chain.message(`u${n}`, user(`request ${n} ${"x".repeat(200)}`));
  chain.message(
    `a${n}`,
    assistant([toolCall(`c${n}`, "read", { path: `f${n}.ts` })], {
      usage: usage(1000 * n),
      stopReason: "toolUse",
    }),
  );
  chain.message(`t${n}`, toolResult(`c${n}`, "read", "y".repeat(400)));
  chain.message(`b${n}`, assistant(`done ${n}`, { usage: usage(1000 * n + 100) }));
}

describe("prepareCompaction", () => {
  it("returns undefined for a branch ending with a compaction or with nothing before the cut", () => {
    expect(prepareCompaction([], settings(0))).toBeUndefined();
    const chain = new EntryChain();
    addTurn(chain, 1);
    expect(prepareCompaction(chain.entries, settings(1_000_000))).toBeUndefined();
    chain.add("cmp", { type: "compaction", summary: "s", firstKeptEntryId: "u1", tokensBefore: 1 });
    expect(prepareCompaction(chain.entries, settings(0))).toBeUndefined();
  });

  it("echoes the settings and reports the split turn's start entry", () => {
    const chain = new EntryChain();
    addTurn(chain, 1);
    addTurn(chain, 2);
    // A turn is 160 tokens (user 53, call 5, result 100, answer 2): 100 tokens stop inside turn 2.
    const preparation = prepareCompaction(chain.entries, settings(100));
    expect(preparation?.settings).toEqual(settings(100));
    expect(preparation?.isSplitTurn).toBe(true);
    expect(preparation?.firstKeptEntryId).toBe("b2");
    expect(preparation?.turnStartEntryId).toBe("u2");
    expect(preparation?.messagesToSummarize.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    expect([...(preparation?.fileOps.read ?? [])]).toEqual(["f1.ts", "f2.ts"]);
  });

  it("tracks file operations with a custom tool mapping", () => {
    const chain = new EntryChain();
    chain.message("u1", user("go"));
    chain.message(
      "a1",
      assistant([toolCall("c1", "str_replace", { file: "x.ts" })], { stopReason: "toolUse" }),
    );
    chain.message("t1", toolResult("c1", "str_replace", "ok"));
    chain.message("u2", user("next"));
    const preparation = prepareCompaction(chain.entries, settings(0), {
      fileToolMapping: { str_replace: { kind: "edit", pathKeys: ["file"] } },
    });
    expect([...(preparation?.fileOps.edited ?? [])]).toEqual(["x.ts"]);
  });

  it("only counts appended entries when called again on a longer branch", () => {
    const chain = new EntryChain();
    for (let n = 1; n <= 50; n++) addTurn(chain, n);
    const counter = countingCounter();
    const first = prepareCompaction(chain.entries, settings(1_000_000_000), { tokenCounter: counter });
    expect(first).toBeUndefined();
    expect(counter.calls).toBe(200);
    for (let n = 51; n <= 52; n++) addTurn(chain, n);
    counter.calls = 0;
    prepareCompaction(chain.entries, settings(1_000_000_000), { tokenCounter: counter });
    expect(counter.calls).toBe(8);
  });

  it("walks only the kept range when the budget is reached early", () => {
    const chain = new EntryChain();
    for (let n = 1; n <= 200; n++) addTurn(chain, n);
    const counter = countingCounter();
    const preparation = prepareCompaction(chain.entries, settings(500), { tokenCounter: counter });
    // Turns 200..198 are 480 tokens; the result of turn 197 crosses 500, so the cut is its answer.
    expect(preparation?.firstKeptEntryId).toBe("b197");
    expect(preparation?.messagesToSummarize).toHaveLength(196 * 4);
    expect(counter.calls).toBeLessThan(20);
  });

  it("returns undefined for an empty branch and when the first kept entry has no id (a hostile file)", () => {
    expect(prepareCompaction([], settings(0))).toBeUndefined();
    const chain = new EntryChain();
    chain.message("u1", user(`first ${"x".repeat(400)}`));
    chain.message("a1", assistant("answer"));
    const idless = chain.message("u2", user(`second ${"y".repeat(400)}`));
    delete (idless as { id?: string }).id;
    expect(prepareCompaction(chain.entries, settings(50))).toBeUndefined();
  });
});
