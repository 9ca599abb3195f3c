import type { SessionEntry, SessionTreeNode } from "@arbor/session-store";
import { describe, expect, it } from "vitest";
import { formatSessionTree } from "./format-session-tree";
import { sessionTreeRows } from "./session-tree-rows";

function user(id: string, text: string): SessionEntry {
  return {
    type: "message",
    id,
    parentId: null,
    timestamp: "2026-01-01T00:00:00.000Z",
    message: { role: "user", content: text, timestamp: 0 },
  };
}

function node(entry: SessionEntry, children: SessionTreeNode[] = [], label?: string): SessionTreeNode {
  return { entry, children, ...(label ? { label } : {}) };
}

describe("formatSessionTree", () => {
  it("keeps chains flat, keeps the line to the leaf flush, indents side branches, marks labels and the leaf", () => {
    const tree = [
      node(user("aaaaaaaa", "start"), [
        node(user("bbbbbbbb", "first idea"), [node(user("cccccccc", "more"))], "try-1"),
        node(user("dddddddd", "second idea"), [
          node(user("eeeeeeee", "deeper a")),
          node(user("ffffffff", "deeper b")),
        ]),
      ]),
    ];
    expect(formatSessionTree(tree, { leafId: "ffffffff", width: 80 }).split("\n")).toEqual([
      "aaaaaaaa user         start",
      "├─ bbbbbbbb user         first idea  [try-1]",
      "│  cccccccc user         more",
      "dddddddd user         second idea",
      "├─ eeeeeeee user         deeper a",
      "ffffffff user         deeper b  ← leaf",
    ]);
  });

  it("goes on with the child towards the leaf even when it is the oldest, and nests a side branch's forks", () => {
    const tree = [
      node(user("aaaaaaaa", "start"), [
        node(user("bbbbbbbb", "kept"), [node(user("cccccccc", "leaf here"))]),
        node(user("dddddddd", "abandoned"), [
          node(user("eeeeeeee", "old try")),
          node(user("ffffffff", "new try"), [node(user("99999999", "then"))]),
        ]),
        node(user("11111111", "also abandoned")),
      ]),
    ];
    expect(formatSessionTree(tree, { leafId: "cccccccc", width: 80 }).split("\n")).toEqual([
      "aaaaaaaa user         start",
      "├─ dddddddd user         abandoned",
      "│  ├─ eeeeeeee user         old try",
      "│  ffffffff user         new try",
      "│  99999999 user         then",
      "├─ 11111111 user         also abandoned",
      "bbbbbbbb user         kept",
      "cccccccc user         leaf here  ← leaf",
    ]);
  });

  it("does not indent the line further with each fork along it", () => {
    let current = node(user("last0000", "end"));
    for (let index = 0; index < 1_000; index++) {
      const side = node(user(`s${index.toString(16).padStart(7, "0")}`, "side"));
      current = node(user(index.toString(16).padStart(8, "0"), "step"), [side, current]);
    }
    const lines = formatSessionTree([current], { leafId: "last0000", width: 80 }).split("\n");
    expect(lines).toHaveLength(2_001);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(lines.at(-1)).toBe("last0000 user         end  ← leaf");
  });

  it("gives the same lines as rows with their entry ids, in display order", () => {
    const tree = [
      node(user("aaaaaaaa", "start"), [node(user("bbbbbbbb", "one")), node(user("cccccccc", "two"))]),
    ];
    const rows = sessionTreeRows(tree, { leafId: "bbbbbbbb", width: 80 });
    expect(rows.map((row) => row.id)).toEqual(["aaaaaaaa", "cccccccc", "bbbbbbbb"]);
    expect(rows.map((row) => row.text).join("\n")).toBe(
      formatSessionTree(tree, { leafId: "bbbbbbbb", width: 80 }),
    );
    expect(rows[1]?.text).toBe("├─ cccccccc user         two");
    expect(rows[2]?.text).toBe("bbbbbbbb user         one  ← leaf");
  });

  it("renders a very long chain without recursion", () => {
    let current = node(user("last0000", "end"));
    for (let index = 0; index < 20_000; index++) {
      current = node(user(index.toString(16).padStart(8, "0"), "step"), [current]);
    }
    expect(formatSessionTree([current], { leafId: null, width: 80 }).split("\n")).toHaveLength(20_001);
  });

  it("makes ids, labels and previews from the file inert and keeps each row on one line", () => {
    const hostile = user("a\u001b]0;x\u0007b", "hi\u001b[2J\nthere\u202e");
    const rows = sessionTreeRows([node(hostile, [], "lab\u009b8mel\r")], { leafId: null, width: 80 });
    expect(rows.map((row) => row.text)).toEqual(["ab       user         hi there  [label]"]);
  });
});
