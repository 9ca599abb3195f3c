import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSessionStore, type SessionStore, type SessionTreeLinks } from "@arbor/session-store";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: the benchmark's session generator is plain JavaScript without types
import { generateSessionLines } from "../../../../bench/generate-session.mjs";
import { sessionTreeLinkRows, sessionTreeShapeRows } from "./session-tree-rows";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-tree-link-rows-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function open(name: string, lines: readonly unknown[]): SessionStore {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`,
  );
  return openSessionStore(file, { storage: { readOnly: true, sidecarIndex: false }, validate: "lazy" });
}

/** The rows both ways: from the node objects, and from the links (entries read by number). */
function bothWays(store: SessionStore, width: number) {
  const options = { leafId: store.leafId, width };
  const shape = [...sessionTreeShapeRows(store.getTreeShape(), options, (id) => store.getEntry(id))];
  const links = store.getTreeLinks() as SessionTreeLinks;
  expect(links).toBeDefined();
  const linked = [...sessionTreeLinkRows(links, options, (entry) => store.getEntry(links.id(entry)))];
  return { shape, linked };
}

const stamp = (second: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString();
const user = (id: string, parentId: string | null, second: number) => ({
  type: "message",
  id,
  parentId,
  timestamp: stamp(second),
  message: { role: "user", content: `text of ${id}`, timestamp: second },
});
const header = { type: "session", version: 3, id: "s", timestamp: stamp(0), cwd: "/w" };

describe("sessionTreeLinkRows", () => {
  it("makes sessionTreeShapeRows' rows for generated sessions (forks, labels, summaries)", () => {
    for (const seed of [1, 7]) {
      const store = open(`generated-${seed}.jsonl`, [...generateSessionLines({ entries: 4000, seed })]);
      try {
        for (const width of [60, 120, 200]) {
          const { shape, linked } = bothWays(store, width);
          expect(shape.some((row) => row.text.startsWith("├─ "))).toBe(true);
          expect(linked).toEqual(shape);
        }
      } finally {
        store.close();
      }
    }
  });

  it("goes on towards a leaf in an older branch, draws nested side branches and several roots", () => {
    const store = open("hand-made.jsonl", [
      header,
      user("a", null, 1),
      user("b", "a", 2),
      user("c", "b", 3),
      user("d", "a", 4),
      user("e", "d", 5),
      user("f", "d", 6),
      user("g", null, 7),
      { type: "label", id: "l", parentId: "g", timestamp: stamp(8), targetId: "d", label: "here" },
      user("h", "c", 9),
    ]);
    try {
      const { shape, linked } = bothWays(store, 80);
      expect(linked).toEqual(shape);
      expect(linked.map((row) => row.text.slice(0, 14).trimEnd())).toEqual([
        "├─ g        us",
        "│  l        la",
        "a        user",
        "├─ d        us",
        "│  ├─ e",
        "│  f        us",
        "b        user",
        "c        user",
        "h        user",
      ]);
      expect(linked[3]?.text.endsWith("[here]")).toBe(true);
      expect(linked[8]?.text.endsWith("← leaf")).toBe(true);
    } finally {
      store.close();
    }
  });
});
