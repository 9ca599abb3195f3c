import { describe, expect, it } from "vitest";
import { EntryChain, header } from "./__fixtures__/entry-builders";
import { createRandom, RandomSessionDriver } from "./__fixtures__/random-session";
import { TestStorage } from "./__fixtures__/test-storage";
import type { SessionTreeNode, SessionTreeShapeNode } from "./internal/build-session-tree";
import { buildSessionProjection } from "./projection/build-session-projection";
import { SessionStore } from "./session-store";
import { createMemoryStorage } from "./storage/create-memory-storage";

function expectSameAsPure(store: SessionStore, leafId?: string | null) {
  const entries = store.getEntries();
  const leaf = leafId === undefined ? store.leafId : leafId;
  const expected = buildSessionProjection(entries, leaf);
  const actual = store.getProjection(leafId);
  expect(actual.entries.map((entry) => entry.sourceEntry.id)).toEqual(
    expected.entries.map((entry) => entry.sourceEntry.id),
  );
  expect(actual).toEqual(expected);
}

describe("incremental and lazy projection", () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`equals the pure projection after every step (seed ${seed})`, () => {
      const random = createRandom(seed);
      const storage = new TestStorage();
      const store = new SessionStore(storage, { cwd: "/p", now: RandomSessionDriver.clockFor() });
      const driver = new RandomSessionDriver(store, random);
      for (let step = 0; step < 150; step++) {
        driver.step();
        expectSameAsPure(store);
      }
      // Reopen lazily from the stored lines (with the table's own id lookup, then with the in-memory
      // backend's parent index and id lookup) and compare random leaves.
      const content = `${storage
        .fileEntries()
        .map((line) => JSON.stringify(line))
        .join("\n")}\n`;
      const withBackendIndex = new SessionStore(createMemoryStorage({ content }));
      const reopened = new SessionStore(new TestStorage(storage.fileEntries()));
      const ids = reopened.getEntries().map((entry) => entry.id);
      expect(reopened.leafId).toBe(ids[ids.length - 1]);
      // The tree shape (records only) is the tree's forest, node for node.
      type Outline = { id: string; label?: string; children: Outline[] };
      const outline = (nodes: readonly SessionTreeNode[]): Outline[] =>
        nodes.map((node) => ({
          id: node.entry.id,
          ...(node.label ? { label: node.label } : {}),
          children: outline(node.children),
        }));
      const shapeOutline = (nodes: readonly SessionTreeShapeNode[]): Outline[] =>
        nodes.map((node) => ({
          id: node.id,
          ...(node.label ? { label: node.label } : {}),
          children: shapeOutline(node.children),
        }));
      expect(shapeOutline(withBackendIndex.getTreeShape())).toEqual(outline(reopened.getTree()));
      for (let probe = 0; probe < 20; probe++) {
        const leafId = ids[Math.floor(random() * ids.length)] as string;
        expectSameAsPure(reopened, leafId);
        reopened.branch(leafId);
        expectSameAsPure(reopened);
        withBackendIndex.branch(leafId);
        expectSameAsPure(withBackendIndex);
      }
      expectSameAsPure(reopened, null);
    });
  }
});

describe("projection read only now and then", () => {
  for (const seed of [11, 12, 13, 14]) {
    it(`equals the pure projection with several appends, branches and edits between reads (seed ${seed})`, () => {
      const random = createRandom(seed);
      const storage = new TestStorage();
      const store = new SessionStore(storage, { cwd: "/p", now: RandomSessionDriver.clockFor() });
      const driver = new RandomSessionDriver(store, random);
      store.getProjection();
      for (let step = 0; step < 200; step++) {
        driver.step();
        // Appends wait to be applied until the next read: read in one step out of four, at random.
        if (random() < 0.25) expectSameAsPure(store);
      }
      expectSameAsPure(store);
    });
  }
});

describe("hand-edited files with duplicated ids and odd links", () => {
  it("projects every leaf as the pure functions do", () => {
    const chain = new EntryChain();
    chain.user("u1");
    chain.add("dup", { type: "compaction", summary: "first dup", firstKeptEntryId: "u1", tokensBefore: 1 });
    chain.user("u2");
    chain.add("c2", {
      type: "compaction",
      summary: "kept id on another branch",
      firstKeptEntryId: "x1",
      tokensBefore: 1,
    });
    chain.user("x1", "side", "u1");
    chain.add(
      "dup",
      { type: "compaction", summary: "second dup", firstKeptEntryId: "u2", tokensBefore: 1 },
      "c2",
    );
    chain.user("u3");
    chain.add(
      "dup",
      { type: "compaction", summary: "leaf dup", firstKeptEntryId: "u1", tokensBefore: 1 },
      "u3",
    );
    chain.user("orphan", "o", "missing");
    chain.add("self", { type: "message", message: { role: "user", content: "s" } }, "self");
    const storage = new TestStorage([header(), ...chain.entries]);
    const store = new SessionStore(storage);
    const entries = store.getEntries();
    for (let index = 0; index < entries.length; index++) {
      store.branch((entries[index] as { id: string }).id);
      expectSameAsPure(store);
    }
  });
});

describe("getBranch({ sinceLatestCompaction })", () => {
  it("is a suffix of the branch whose projection gives the same context", () => {
    for (const seed of [11, 12, 13]) {
      const store = new SessionStore(new TestStorage(), { now: RandomSessionDriver.clockFor() });
      const driver = new RandomSessionDriver(store, createRandom(seed));
      for (let step = 0; step < 120; step++) {
        driver.step();
        const full = store.getBranch();
        const suffix = store.getBranch(undefined, { sinceLatestCompaction: true });
        expect(full.slice(full.length - suffix.length)).toEqual(suffix);
        const context = (entries: typeof full) => {
          const projection = buildSessionProjection(entries);
          return { entries: projection.entries, messages: projection.messages };
        };
        expect(context(suffix)).toEqual(context(full));
      }
    }
  });
});
