import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: the benchmark's session generator is plain JavaScript without types
import { generateSessionLines } from "../../../../bench/generate-session.mjs";
import { fixturesDir } from "../__fixtures__/describe-store";
import { openSessionStore } from "../open-session-store";
import type { SessionStore } from "../session-store";
import { SessionStore as Store } from "../session-store";
import { createMemoryStorage } from "../storage/create-memory-storage";
import { arrangeTreeShape } from "./arrange-tree-shape";
import type { SessionTreeShapeNode } from "./build-session-tree";
import { arrangeShapeByForest } from "./build-tree-shape";
import type { EntryTable } from "./entry-table";
import type { ResolvedLabel } from "./label-index";

const dir = mkdtempSync(join(tmpdir(), "arbor-tree-shape-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REAL_SESSIONS = "/work/shared/pi-sessions";

/** The table and labels behind a store (internal members, read for the comparison only). */
function internals(store: SessionStore): { table: EntryTable; labels: ReadonlyMap<string, ResolvedLabel> } {
  const inner = store as unknown as {
    table: EntryTable;
    labels: { all(): ReadonlyMap<string, ResolvedLabel> };
  };
  return { table: inner.table, labels: inner.labels.all() };
}

/** Ids in display order with depth, so that two shapes compare node for node and order for order. */
function outline(roots: readonly SessionTreeShapeNode[]): string[] {
  const rows: string[] = [];
  const stack = [...roots].reverse().map((node) => ({ node, depth: 0 }));
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { node, depth } = item;
    rows.push(`${depth} ${node.id} ${node.label ?? ""} ${node.labelTimestamp ?? ""}`);
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push({ node: node.children[i] as SessionTreeShapeNode, depth: depth + 1 });
  }
  return rows;
}

function expectSameShape(store: SessionStore): number {
  const { table, labels } = internals(store);
  const arranged = arrangeTreeShape(table, labels);
  expect(arranged).toBeDefined();
  const expected = outline(arrangeShapeByForest(table, labels));
  expect(outline(arranged as SessionTreeShapeNode[])).toEqual(expected);
  expect(outline(store.getTreeShape())).toEqual(expected);
  return expected.length;
}

function writeLines(name: string, lines: readonly unknown[]): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`,
  );
  return file;
}

describe("arrangeTreeShape (the tree shape from parent indices)", () => {
  for (const [entries, seed] of [
    [3000, 1],
    [3000, 2],
    [10000, 3],
  ] as const) {
    it(`equals arrangeForest's shape on a generated session (${entries} entries, seed ${seed})`, () => {
      const file = writeLines(`generated-${entries}-${seed}.jsonl`, [
        ...generateSessionLines({ entries, seed }),
      ]);
      const store = openSessionStore(file, { storage: { readOnly: true } });
      try {
        expect(expectSameShape(store)).toBe(entries);
      } finally {
        store.close();
      }
    });
  }

  const real = existsSync(REAL_SESSIONS)
    ? readdirSync(REAL_SESSIONS).filter((name) => name.endsWith(".jsonl.gz"))
    : [];
  it.runIf(real.length > 0)("equals arrangeForest's shape on the real pi sessions", () => {
    for (const name of real) {
      const file = join(dir, name.replace(/\.gz$/, ""));
      writeFileSync(file, gunzipSync(readFileSync(join(REAL_SESSIONS, name))));
      const store = openSessionStore(file, { storage: { readOnly: true } });
      try {
        expect(expectSameShape(store)).toBeGreaterThan(0);
      } finally {
        store.close();
      }
    }
  });

  it("equals arrangeForest's shape on the fixture sessions with unique ids", () => {
    let compared = 0;
    for (const name of readdirSync(fixturesDir).filter((file) => file.endsWith(".jsonl"))) {
      const store = openSessionStore(join(fixturesDir, name), { storage: { readOnly: true } });
      try {
        store.getTree(); // reads every entry: corrupt lines are found and left out before comparing
        const { table, labels } = internals(store);
        if (arrangeTreeShape(table, labels) === undefined) continue; // shared or missing ids
        expectSameShape(store);
        compared++;
      } finally {
        store.close();
      }
    }
    expect(compared).toBeGreaterThan(3);
  });

  const stamp = (second: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString();
  const custom = (id: string, parentId: string | null, second: number) => ({
    type: "custom",
    customType: "t",
    id,
    parentId,
    timestamp: stamp(second),
  });
  const header = { type: "session", version: 3, id: "s", timestamp: stamp(0), cwd: "/w" };

  it("orders a fork's children by time, stable for equal times, orphans and self-parents as roots", () => {
    const content = [
      header,
      custom("a", null, 1),
      custom("c", "a", 3),
      custom("b", "a", 2),
      custom("d", "a", 2),
      custom("o", "zz", 4),
      custom("s", "s", 5),
      { type: "label", id: "l", parentId: "o", timestamp: stamp(6), targetId: "b", label: "here" },
    ];
    const store = new Store(
      createMemoryStorage({ content: `${content.map((e) => JSON.stringify(e)).join("\n")}\n` }),
    );
    expectSameShape(store);
    expect(outline(store.getTreeShape()).map((row) => row.trim())).toEqual([
      "0 a",
      `1 b here ${stamp(6)}`,
      "1 d",
      "1 c",
      "0 o",
      "1 l",
      "0 s",
    ]);
  });

  it("cuts a parent loop without shared ids and makes its entries extra roots in file order", () => {
    const file = writeLines("loop.jsonl", [
      header,
      custom("r", null, 1),
      custom("x", "y", 2),
      custom("y", "x", 3),
      custom("z", "y", 4),
    ]);
    const store = openSessionStore(file, { storage: { readOnly: true } });
    try {
      expectSameShape(store);
      expect(outline(store.getTreeShape()).map((row) => row.trim())).toEqual(["0 r", "0 x", "1 y", "2 z"]);
    } finally {
      store.close();
    }
  });

  it("leaves shared ids to arrangeForest", () => {
    const file = writeLines("shared.jsonl", [
      header,
      custom("a", null, 1),
      custom("b", "a", 2),
      custom("a", "b", 3),
    ]);
    const store = openSessionStore(file, { storage: { readOnly: true } });
    try {
      const { table, labels } = internals(store);
      expect(arrangeTreeShape(table, labels)).toBeUndefined();
      expect(outline(store.getTreeShape())).toEqual(outline(arrangeShapeByForest(table, labels)));
    } finally {
      store.close();
    }
  });
});
