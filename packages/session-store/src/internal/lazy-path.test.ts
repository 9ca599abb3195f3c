import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSessionStore } from "../open-session-store";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "arbor-lazy-path-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const header = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" };

function line(id: string, parentId: string | null, text: string, extra: Record<string, unknown> = {}) {
  return {
    type: "message",
    id,
    parentId,
    timestamp: "2026-01-01T00:00:01.000Z",
    message: { role: "user", content: text, timestamp: 1 },
    ...extra,
  };
}

function open(entries: Record<string, unknown>[]) {
  const file = join(dir, "s.jsonl");
  writeFileSync(file, `${[header, ...entries].map((entry) => JSON.stringify(entry)).join("\n")}\n`);
  return openSessionStore(file, { storage: { readOnly: true } });
}

const texts = (store: ReturnType<typeof open>) =>
  store.getProjection().messages.map((message) => (message as { content: unknown }).content);

describe("the path from the leaf to the root", () => {
  it("is the chain of parents, root first, in getPathIds, getBranch and the projection", () => {
    // A long chain with a side branch: the path leaves the side branch out.
    const entries = [line("e0", null, "t0")];
    for (let i = 1; i < 3000; i++) entries.push(line(`e${i}`, `e${i - 1}`, `t${i}`));
    entries.push(line("side", "e10", "side"));
    entries.push(line("last", "e2999", "last"));
    const store = open(entries);
    const expected = [...entries.slice(0, 3000).map((entry) => entry.id), "last"];
    expect(store.getPathIds()).toEqual(expected);
    expect(store.getBranch().map((entry) => entry.id)).toEqual(expected);
    expect(store.getPathIds("e5")).toEqual(["e0", "e1", "e2", "e3", "e4", "e5"]);
    // Around the walk's first array growth (256 entries) and its second.
    for (const length of [255, 256, 257, 512, 513]) {
      expect(store.getPathIds(`e${length - 1}`)).toEqual(expected.slice(0, length));
    }
    expect(store.getPathIds("side")).toEqual([...expected.slice(0, 11), "side"]);
    expect(texts(store)).toEqual([...entries.slice(0, 3000).map((_, i) => `t${i}`), "last"]);
    store.close();
  });

  it("stops before the first repeat when a parent comes later in the file (a hand-edited loop)", () => {
    // b's parent is d, written after it: d → c → b → d would loop.
    const store = open([line("a", null, "a"), line("b", "d", "b"), line("c", "b", "c"), line("d", "c", "d")]);
    expect(store.leafId).toBe("d");
    expect(store.getPathIds()).toEqual(["b", "c", "d"]);
    expect(store.getBranch().map((entry) => entry.id)).toEqual(["b", "c", "d"]);
    expect(texts(store)).toEqual(["b", "c", "d"]);
    store.close();
  });

  it("stops before the first repeat after a chain walked without the visited set", () => {
    // Three ordinary steps up (f → e → x → w), then w's parent is f, which comes after it.
    const store = open([line("w", "f", "w"), line("x", "w", "x"), line("e", "x", "e"), line("f", "e", "f")]);
    expect(store.getPathIds()).toEqual(["w", "x", "e", "f"]);
    expect(texts(store)).toEqual(["w", "x", "e", "f"]);
    expect(store.getBranch(undefined, { sinceLatestCompaction: true }).map((entry) => entry.id)).toEqual([
      "w",
      "x",
      "e",
      "f",
    ]);
    store.close();
  });

  it("is the entry alone when it names itself as its parent", () => {
    const store = open([line("a", null, "a"), line("self", "self", "self")]);
    expect(store.getPathIds()).toEqual(["self"]);
    expect(store.getBranch(undefined, { sinceLatestCompaction: true }).map((entry) => entry.id)).toEqual([
      "self",
    ]);
    expect(texts(store)).toEqual(["self"]);
    store.close();
  });
});
