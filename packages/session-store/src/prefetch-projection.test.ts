/**
 * `SessionView.prefetchProjection` over a storage with the asynchronous read seam (a memory storage
 * that holds no line until it is fetched): the projection, labels and name then read only fetched
 * lines, equal the plain store's, and the prefetch leaves no trace (validation count). Every leaf of
 * every fixture, so compactions, branches, context edits and settings are all covered.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesDir } from "./__fixtures__/describe-store";
import { createInMemorySessionStore } from "./create-in-memory-session-store";
import { SessionStore } from "./session-store";
import { createMemoryStorage } from "./storage/create-memory-storage";
import type { SessionStorage } from "./storage/session-storage";

/** A memory storage whose lines must be fetched first; counts fetch rounds and unfetched reads. */
function seamStorage(content: string) {
  const memory = createMemoryStorage({ content });
  const held = new Set<number>();
  const counts = { rounds: 0, fetched: 0, unfetchedReads: 0 };
  const storage: SessionStorage = {
    kind: "seam",
    path: undefined,
    load: () => memory.load(),
    readEntry(index) {
      if (!held.has(index)) counts.unfetchedReads++;
      return memory.readEntry(index);
    },
    lineOf: (index) => memory.lineOf(index),
    indexOfId: (id) => memory.indexOfId(id),
    hasEntry: (index) => held.has(index),
    async fetchEntries(indices) {
      counts.rounds++;
      for (const index of indices) {
        if (!held.has(index)) counts.fetched++;
        held.add(index);
      }
    },
    append: (entries) => memory.append(entries),
    rewrite: (header, entries) => memory.rewrite(header, entries),
    close: () => memory.close(),
  };
  return { storage, counts };
}

const fixtures = readdirSync(fixturesDir).filter(
  (name) => name.endsWith(".jsonl") && !name.startsWith("v1") && !name.startsWith("v2"),
);

describe("prefetchProjection", () => {
  it.each(fixtures)(
    "%s: every leaf's projection, labels and name read only prefetched lines",
    async (fixture) => {
      const content = readFileSync(join(fixturesDir, fixture), "utf8");
      const ids = createInMemorySessionStore({ content })
        .getEntries()
        .map((entry) => entry.id);
      for (const leafId of [undefined, ...ids]) {
        const plain = createInMemorySessionStore({ content });
        const { storage, counts } = seamStorage(content);
        const store = new SessionStore(storage);
        if (leafId !== undefined) {
          plain.branch(leafId);
          store.branch(leafId);
        }
        await store.prefetchProjection();
        expect(counts.unfetchedReads).toBe(0);
        expect(store.validatedEntryCount).toBe(0);
        expect(store.getProjection()).toEqual(plain.getProjection());
        expect(store.getLabels()).toEqual(plain.getLabels());
        expect(store.getSessionName()).toBe(plain.getSessionName());
        expect(store.issues).toEqual(plain.issues);
        expect(store.validatedEntryCount).toBe(plain.validatedEntryCount);
        if (!fixture.includes("corrupt")) expect(counts.unfetchedReads).toBe(0);
        expect(counts.rounds).toBeLessThanOrEqual(6);
      }
    },
  );

  it("resolves at once for storages without the seam", async () => {
    const store = createInMemorySessionStore({
      content: readFileSync(join(fixturesDir, "compactions.jsonl"), "utf8"),
    });
    await store.prefetchProjection();
    expect(store.validatedEntryCount).toBe(0);
  });
});
