/**
 * Drives a SessionStore with random operations (seeded), for property-style tests: appends of every
 * entry type, branch moves, resets, compactions with every kind of firstKeptEntryId, context edits,
 * labels, branch summaries and entries of unknown types.
 */
import type { AgentMessage } from "@arbor/agent-loop";
import type { SessionStore } from "../session-store";
import type { SessionEntry } from "../session-entry";
import { usage } from "./entry-builders";

/** mulberry32: a tiny seeded PRNG. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class RandomSessionDriver {
  private counter = 0;
  private clock = Date.parse("2025-01-01T00:00:00.000Z");

  constructor(
    private readonly store: SessionStore,
    private readonly random: () => number,
  ) {}

  /** A deterministic clock for the store's `now` option. */
  static clockFor(start = Date.parse("2025-01-01T00:00:00.000Z")): () => Date {
    let time = start;
    return () => new Date((time += 1000));
  }

  private pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[Math.floor(this.random() * items.length)];
  }

  private text(): string {
    return `t${this.counter++}`;
  }

  message(): AgentMessage {
    const roll = this.random();
    const timestamp = (this.clock += 1000);
    if (roll < 0.3) return { role: "user", content: this.random() < 0.5 ? this.text() : [{ type: "text", text: this.text() }], timestamp };
    if (roll < 0.6) {
      return {
        role: "assistant",
        content: [{ type: "text", text: this.text() }],
        api: "anthropic-messages",
        provider: this.pick(["anthropic", "openai"]) as string,
        model: this.pick(["m1", "m2"]) as string,
        usage: usage(10, 2),
        stopReason: "stop",
        timestamp,
      };
    }
    if (roll < 0.75) {
      return { role: "toolResult", toolCallId: this.text(), toolName: "read", content: [{ type: "text", text: this.text() }], isError: false, timestamp };
    }
    if (roll < 0.85) {
      return { role: "system", content: this.random() < 0.5 ? "" : this.text(), sections: { [this.pick(["a", "b"]) as string]: this.random() < 0.3 ? null : this.text() }, toolsAdded: [{ name: this.pick(["read", "bash"]) as string, description: "d", parameters: {} }], timestamp };
    }
    if (roll < 0.92) return { role: "bashExecution", command: "ls", output: this.text(), exitCode: 0, cancelled: false, truncated: false, timestamp };
    return { role: "custom", customType: "note", content: this.text(), display: true, timestamp };
  }

  /** Applies one random operation. */
  step(): void {
    const store = this.store;
    const roll = this.random();
    const branch = store.getBranch();
    const all = store.getEntries();
    if (roll < 0.45 || all.length === 0) store.appendMessage(this.message());
    else if (roll < 0.5) store.appendModelChange("p", this.text());
    else if (roll < 0.53) store.appendThinkingLevelChange(this.pick(["low", "high"]) as string);
    else if (roll < 0.6) {
      const target = this.pick(branch);
      const firstKept = this.random() < 0.15 ? null : this.random() < 0.1 ? "missing" : (target?.id ?? null);
      store.appendCompaction({ summary: this.text(), firstKeptEntryId: firstKept, tokensBefore: 5 });
    } else if (roll < 0.7) {
      const editable = branch.filter(
        (entry) =>
          entry.type === "custom_message" ||
          (entry.type === "message" && ["user", "assistant", "toolResult"].includes(entry.message.role)),
      );
      const target = this.pick(editable);
      if (target) store.appendContextEdit(target.id, this.random() < 0.3 ? null : { content: this.text() });
    } else if (roll < 0.74) {
      const target = this.pick(all);
      if (target) store.appendLabelChange(target.id, this.random() < 0.3 ? undefined : this.text());
    } else if (roll < 0.78) store.appendCustomMessageEntry({ customType: "x", content: this.text(), display: false });
    else if (roll < 0.8) store.appendCustomEntry("state", { n: this.counter });
    else if (roll < 0.83) {
      const target = this.random() < 0.1 ? null : (this.pick(all)?.id ?? null);
      store.branchWithSummary(target, { summary: this.random() < 0.2 ? "" : this.text() });
    } else if (roll < 0.93) {
      const target = this.pick(all);
      if (target) store.branch(target.id);
    } else if (roll < 0.95) store.resetLeaf();
    else if (roll < 0.97) {
      const parentId = store.leafId;
      const unknown = { type: "future_thing", id: `u${this.counter++}`, parentId, timestamp: new Date((this.clock += 1000)).toISOString(), payload: { x: 1 } };
      store.importEntries([unknown as unknown as SessionEntry]);
    } else store.appendSessionInfo(` name\n${this.text()} `);
  }
}
