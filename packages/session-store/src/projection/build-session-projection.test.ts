import { describe, expect, it } from "vitest";
import { EntryChain } from "../__fixtures__/entry-builders";
import type { SessionEntry } from "../session-entry";
import { buildSessionProjection } from "./build-session-projection";

function summarize(entries: readonly SessionEntry[], leafId?: string | null) {
  const projection = buildSessionProjection(entries, leafId);
  return projection.entries.map(
    (entry) => `${entry.sourceEntry.id}:${entry.messages.map((m) => m.role).join(",")}`,
  );
}

function compaction(chain: EntryChain, id: string, firstKeptEntryId: string, withSystem = true) {
  return chain.add(id, {
    type: "compaction",
    summary: `summary ${id}`,
    firstKeptEntryId,
    tokensBefore: 1000,
    ...(withSystem ? { systemMessage: { role: "system", content: "checkpoint", timestamp: 1 } } : {}),
  });
}

describe("buildSessionProjection", () => {
  it("projects a plain path with metadata entries contributing nothing", () => {
    const chain = new EntryChain();
    chain.system("s1", { sections: { preamble: "You code." } });
    chain.add("mc", { type: "model_change", provider: "openai", modelId: "gpt-x" });
    chain.add("tl", { type: "thinking_level_change", thinkingLevel: "high" });
    chain.user("u1");
    chain.assistant("a1");
    chain.add("lb", { type: "label", targetId: "u1", label: "start" });
    const projection = buildSessionProjection(chain.entries);
    expect(summarize(chain.entries)).toEqual(["s1:system", "mc:", "tl:", "u1:user", "a1:assistant", "lb:"]);
    expect(projection.thinkingLevel).toBe("high");
    expect(projection.model).toEqual({ provider: "anthropic", modelId: "claude-x" });
    expect(projection.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(projection.entries[3]?.sourceEntry).toBe(chain.entries[3]);
  });

  it("keeps entries from firstKeptEntryId, drops kept system messages, keeps later ones", () => {
    const chain = new EntryChain();
    chain.system("s1", { content: "base" });
    chain.user("u1");
    chain.assistant("a1");
    chain.system("s2", { sections: { extra: "x" } });
    chain.user("u2");
    compaction(chain, "c1", "a1");
    chain.system("s3", { sections: { extra: null } });
    chain.user("u3");
    expect(summarize(chain.entries)).toEqual([
      "c1:system,compactionSummary",
      "a1:assistant",
      "u2:user",
      "s3:system",
      "u3:user",
    ]);
  });

  it("re-exposes entries of an older compaction and gives the older compaction no messages", () => {
    const chain = new EntryChain();
    chain.user("u1");
    chain.assistant("a1");
    chain.user("u2");
    compaction(chain, "c1", "u2", false);
    chain.assistant("a2");
    compaction(chain, "c2", "a1");
    expect(summarize(chain.entries)).toEqual([
      "c2:system,compactionSummary",
      "a1:assistant",
      "u2:user",
      "c1:",
      "a2:assistant",
    ]);
  });

  it("keeps nothing before a retain-none compaction", () => {
    const chain = new EntryChain();
    chain.user("u1");
    compaction(chain, "c1", "c1");
    expect(summarize(chain.entries)).toEqual(["c1:system,compactionSummary"]);
  });

  it("applies the latest context edit on the branch and ignores edits on other branches", () => {
    const chain = new EntryChain();
    chain.user("u1");
    chain.assistant("a1");
    chain.add("e1", { type: "context_edit", targetId: "a1", replacement: { content: "short" } });
    chain.add("e2", { type: "context_edit", targetId: "u1", replacement: null });
    chain.add("e3", { type: "context_edit", targetId: "a1", replacement: { content: "shorter" } });
    chain.add("other", { type: "context_edit", targetId: "a1", replacement: null }, "a1");
    const projection = buildSessionProjection(chain.entries, "e3");
    expect(projection.messages).toHaveLength(1);
    expect(projection.messages[0]).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text: "shorter" }],
    });
    const sibling = buildSessionProjection(chain.entries, "other");
    expect(sibling.messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("returns an empty projection for a null leaf and uses the last entry for an unknown one", () => {
    const chain = new EntryChain();
    chain.user("u1");
    chain.user("u2", "hi", null);
    expect(buildSessionProjection(chain.entries, null).entries).toEqual([]);
    expect(summarize(chain.entries, "missing")).toEqual(["u2:user"]);
  });
});
