import type { AgentMessage } from "@arbor/agent-loop";
import { describe, expect, it } from "vitest";
import {
  type CutPointSource,
  isCutPointMessage,
  isTurnStartMessage,
  searchCutIndex,
} from "./cut-point-search";
import { assistant, toolResult, user } from "./testing/messages";

/** A cut-point view over plain arrays: one entry per index, with its messages and tokens. */
function source(
  entries: Array<{ messages: AgentMessage[]; tokens: number; compaction?: boolean }>,
): CutPointSource {
  return {
    isCompaction: (index) => entries[index]?.compaction === true,
    messages: (index) => entries[index]?.messages ?? [],
    tokens: (index) => entries[index]?.tokens ?? 0,
  };
}

const roles: Array<[string, boolean, boolean]> = [
  ["user", true, true],
  ["assistant", true, false],
  ["bashExecution", true, true],
  ["custom", true, true],
  ["branchSummary", true, true],
  ["compactionSummary", true, true],
  ["toolResult", false, false],
  ["system", false, false],
  ["somethingNew", false, false],
];

describe("cut-point roles", () => {
  it.each(roles)("%s: cut point %s, turn start %s", (role, cutPoint, turnStart) => {
    const message = { role } as unknown as AgentMessage;
    expect(isCutPointMessage(message)).toBe(cutPoint);
    expect(isTurnStartMessage(message)).toBe(turnStart);
  });
});

describe("searchCutIndex", () => {
  it("cuts at the nearest cut point at or after the entry that reaches the budget (budget exceeded)", () => {
    const view = source([
      { messages: [user("a")], tokens: 100 },
      { messages: [assistant("b")], tokens: 100 },
      { messages: [toolResult("c", "read", "x")], tokens: 100 },
      { messages: [assistant("d")], tokens: 100 },
    ]);
    expect(searchCutIndex(view, 0, 4, 150)).toEqual({ cutIndex: 3, exceededBudget: true });
    expect(searchCutIndex(view, 0, 4, 300)).toEqual({ cutIndex: 1, exceededBudget: true });
  });

  it("trailing entries that alone exceed the budget keep the last cut point (budget exceeded)", () => {
    const view = source([
      { messages: [user("a")], tokens: 100 },
      { messages: [assistant("b")], tokens: 100 },
      { messages: [toolResult("c", "read", "x")], tokens: 1000 },
    ]);
    expect(searchCutIndex(view, 0, 3, 500)).toEqual({ cutIndex: 1, exceededBudget: true });
  });

  it("a budget never reached cuts at the first cut point (budget not exceeded)", () => {
    const view = source([
      { messages: [toolResult("c", "read", "x")], tokens: 100 },
      { messages: [assistant("b")], tokens: 100 },
      { messages: [user("a")], tokens: 100 },
    ]);
    expect(searchCutIndex(view, 0, 3, 10_000)).toEqual({ cutIndex: 1, exceededBudget: false });
  });

  it("searches only [start, end): a cut point outside does not count", () => {
    const view = source([
      { messages: [user("a")], tokens: 100 },
      { messages: [toolResult("c", "read", "x")], tokens: 100 },
      { messages: [user("z")], tokens: 100 },
    ]);
    expect(searchCutIndex(view, 1, 2, 10)).toBeUndefined();
    expect(searchCutIndex(view, 0, 2, 10)).toEqual({ cutIndex: 0, exceededBudget: true });
  });

  it("never cuts at a compaction, even one contributing a cut-point message", () => {
    const view = source([
      { messages: [{ role: "compactionSummary" } as unknown as AgentMessage], tokens: 100, compaction: true },
      { messages: [toolResult("c", "read", "x")], tokens: 100 },
    ]);
    expect(searchCutIndex(view, 0, 2, 10)).toBeUndefined();
  });

  it("entries worth no tokens do not reach a zero budget: the last non-empty entry decides", () => {
    const view = source([
      { messages: [user("a")], tokens: 100 },
      { messages: [assistant("b")], tokens: 100 },
      { messages: [user("")], tokens: 0 },
    ]);
    expect(searchCutIndex(view, 0, 3, 0)).toEqual({ cutIndex: 1, exceededBudget: true });
  });
});
