import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../session-entry";
import { buildSessionTree, type SessionTreeNode } from "./build-session-tree";

function entry(id: string, parentId: string | null, second: number): SessionEntry {
  return {
    type: "custom",
    customType: "t",
    id,
    parentId,
    timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString(),
  } as SessionEntry;
}

/** Ids in depth-first order, failing on a node seen twice on one path (a loop). */
function flatten(nodes: SessionTreeNode[], path: SessionTreeNode[] = []): string[] {
  return nodes.flatMap((node) => {
    if (path.includes(node)) throw new Error(`loop at ${node.entry.id}`);
    return [node.entry.id, ...flatten(node.children, [...path, node])];
  });
}

describe("buildSessionTree", () => {
  it("sorts children by time and treats orphans as roots", () => {
    const tree = buildSessionTree(
      [entry("a", null, 1), entry("c", "a", 3), entry("b", "a", 2), entry("o", "zz", 4)],
      new Map(),
    );
    expect(flatten(tree)).toEqual(["a", "b", "c", "o"]);
  });

  it("ends on parent loops made by duplicated ids and keeps every entry", () => {
    // The second "a" stands for both copies and hangs below "c", which descends from the first "a".
    const entries = [entry("a", null, 1), entry("b", "a", 2), entry("c", "b", 3), entry("a", "c", 4)];
    const tree = buildSessionTree(entries, new Map());
    expect(flatten(tree)).toEqual(["a", "b", "c"]);
  });

  it("makes entries reachable only through a loop extra roots", () => {
    const entries = [entry("r", null, 1), entry("x", "y", 2), entry("y", "x", 3)];
    const tree = buildSessionTree(entries, new Map());
    expect(tree.map((n) => n.entry.id)).toEqual(["r", "x"]);
    expect(flatten(tree)).toEqual(["r", "x", "y"]);
  });
});
