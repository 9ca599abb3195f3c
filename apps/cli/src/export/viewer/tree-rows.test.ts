import { describe, expect, it } from "vitest";
import type { ExportEntry } from "../export-data";
import { buildTreeShape, visibleTreeRows } from "./tree-rows";

function entries(parents: number[]): ExportEntry[] {
  return parents.map((parent, index) => ({
    id: `e${index}`,
    parent,
    type: "message",
    kind: "user",
    time: "",
    preview: "",
    messages: [],
    tokens: 0,
  }));
}

describe("tree rows", () => {
  // 0 ─ 1 ┬ 2 ─ 3
  //       └ 4 ─ 5
  const shape = buildTreeShape(entries([-1, 0, 1, 2, 1, 4]));

  it("computes children, subtree sizes and leaves", () => {
    expect(shape.roots).toEqual([0]);
    expect(shape.children[1]).toEqual([2, 4]);
    expect(shape.size).toEqual([6, 5, 2, 1, 2, 1]);
    expect(shape.leaves).toEqual([3, 5]);
  });

  it("keeps a chain at one level, indents each branch of a fork, and folds a branch", () => {
    expect(visibleTreeRows(shape, new Set())).toEqual([
      { entry: 0, depth: 0, branchStart: false },
      { entry: 1, depth: 0, branchStart: false },
      { entry: 2, depth: 1, branchStart: true },
      { entry: 3, depth: 1, branchStart: false },
      { entry: 4, depth: 1, branchStart: true },
      { entry: 5, depth: 1, branchStart: false },
    ]);
    expect(visibleTreeRows(shape, new Set([2])).map((row) => row.entry)).toEqual([0, 1, 2, 4, 5]);
  });

  it("shows an entry of a parent cycle as a root instead of losing the cycle", () => {
    const cyclic = buildTreeShape(entries([1, 0, -1]));
    const shown = visibleTreeRows(cyclic, new Set()).map((row) => row.entry);
    expect(shown.sort()).toEqual([0, 1, 2]);
  });
});
