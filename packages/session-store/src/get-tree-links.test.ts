import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: the benchmark's session generator is plain JavaScript without types
import { generateSessionLines } from "../../../bench/generate-session.mjs";
import { fixturesDir } from "./__fixtures__/describe-store";
import type { SessionTreeShapeNode } from "./internal/build-session-tree";
import { openSessionStore } from "./open-session-store";
import type { SessionStore } from "./session-store";
import { SessionStore as Store } from "./session-store";
import type { SessionTreeLinks } from "./session-tree-links";
import { createMemoryStorage } from "./storage/create-memory-storage";

const dir = mkdtempSync(join(tmpdir(), "arbor-tree-links-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REAL_SESSIONS = "/work/shared/pi-sessions";

/** Ids in display order with depth and label, so that two forests compare node for node. */
function shapeOutline(roots: readonly SessionTreeShapeNode[]): string[] {
  const rows: string[] = [];
  const stack = [...roots].reverse().map((node) => ({ node, depth: 0 }));
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { node, depth } = item;
    rows.push(`${depth} ${node.id} ${node.label ?? ""}`);
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push({ node: node.children[i] as SessionTreeShapeNode, depth: depth + 1 });
  }
  return rows;
}

/** {@link shapeOutline} of the links, checking each entry's parent link on the way. */
function linksOutline(links: SessionTreeLinks): string[] {
  const rows: string[] = [];
  const stack = [...links.roots].reverse().map((entry) => ({ entry, depth: 0, up: -1 }));
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { entry, depth, up } = item;
    expect(links.parent[entry]).toBe(up);
    rows.push(`${depth} ${links.id(entry)} ${links.label(entry) ?? ""}`);
    const children: number[] = [];
    for (
      let child = links.firstChild[entry] as number;
      child >= 0;
      child = links.nextSibling[child] as number
    )
      children.push(child);
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ entry: children[i] as number, depth: depth + 1, up: entry });
  }
  return rows;
}

/** Compares the links with the shape (and the lines with `getEntryLine`); returns the node count. */
function expectSameForest(store: SessionStore): number {
  const links = store.getTreeLinks();
  expect(links).toBeDefined();
  const expected = shapeOutline(store.getTreeShape());
  expect(linksOutline(links as SessionTreeLinks)).toEqual(expected);
  const { leaf } = links as SessionTreeLinks;
  expect(leaf < 0 ? null : links?.id(leaf)).toBe(store.leafId);
  for (const entry of [0, 1, Math.floor(store.getEntryCount() / 2), store.getEntryCount() - 1]) {
    const id = links?.id(entry) as string;
    expect(links?.line(entry)).toEqual(store.getEntryLine(id));
  }
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

describe("SessionView.getTreeLinks", () => {
  it("gives getTreeShape's forest on generated sessions, reading the same entries", () => {
    for (const seed of [1, 2]) {
      const file = writeLines(`generated-${seed}.jsonl`, [...generateSessionLines({ entries: 3000, seed })]);
      const viaShape = openSessionStore(file, { storage: { readOnly: true }, validate: "lazy" });
      const viaLinks = openSessionStore(file, { storage: { readOnly: true }, validate: "lazy" });
      try {
        viaShape.getTreeShape();
        viaLinks.getTreeLinks();
        expect(viaLinks.validatedEntryCount).toBe(viaShape.validatedEntryCount);
        expect(expectSameForest(viaLinks)).toBe(3000);
      } finally {
        viaShape.close();
        viaLinks.close();
      }
    }
  });

  const real = existsSync(REAL_SESSIONS)
    ? readdirSync(REAL_SESSIONS).filter((name) => name.endsWith(".jsonl.gz"))
    : [];
  it.runIf(real.length > 0)("gives getTreeShape's forest on the real pi sessions", () => {
    for (const name of real) {
      const file = join(dir, name.replace(/\.gz$/, ""));
      writeFileSync(file, gunzipSync(readFileSync(join(REAL_SESSIONS, name))));
      const store = openSessionStore(file, { storage: { readOnly: true } });
      try {
        expect(expectSameForest(store)).toBeGreaterThan(0);
      } finally {
        store.close();
      }
    }
  });

  it("gives getTreeShape's forest on the fixture sessions", () => {
    let compared = 0;
    for (const name of readdirSync(fixturesDir).filter((file) => file.endsWith(".jsonl"))) {
      const store = openSessionStore(join(fixturesDir, name), { storage: { readOnly: true } });
      try {
        store.getTree(); // reads every entry: corrupt lines are found and left out before comparing
        expectSameForest(store);
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
    expectSameForest(store);
    expect(linksOutline(store.getTreeLinks() as SessionTreeLinks).map((row) => row.trim())).toEqual([
      "0 a",
      "1 b here",
      "1 d",
      "1 c",
      "0 o",
      "1 l",
      "0 s",
    ]);
  });

  it("is undefined for a parent loop and for shared ids (getTreeShape arranges those)", () => {
    for (const [name, lines] of [
      ["loop", [custom("r", null, 1), custom("x", "y", 2), custom("y", "x", 3), custom("z", "y", 4)]],
      ["shared", [custom("a", null, 1), custom("b", "a", 2), custom("a", "b", 3)]],
    ] as const) {
      const store = openSessionStore(writeLines(`${name}.jsonl`, [header, ...lines]), {
        storage: { readOnly: true },
      });
      try {
        expect(store.getTreeLinks()).toBeUndefined();
        expect(store.getTreeShape().length).toBeGreaterThan(0);
      } finally {
        store.close();
      }
    }
  });

  it("finds shared ids through each backend's own id index (repeatedIds), stray session lines aside", () => {
    const shared = [header, custom("a", null, 1), custom("b", "a", 2), custom("a", "b", 3)];
    const stray = [header, custom("a", null, 1), { ...header, id: "a" }, custom("b", "a", 2)];
    const content = (lines: readonly unknown[]) =>
      `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
    expect(createMemoryStorage({ content: content(shared) }).load().repeatedIds).toBe(true);
    expect(createMemoryStorage({ content: content(stray) }).load().repeatedIds).toBe(false);
    const memory = new Store(createMemoryStorage({ content: content(shared) }));
    expect(memory.getTreeLinks()).toBeUndefined();
    const file = writeLines("stray-session-line.jsonl", stray);
    for (let open = 0; open < 2; open++) {
      // The second open may use the sidecar index the first one wrote.
      const store = openSessionStore(file, { storage: { readOnly: true } });
      try {
        const links = store.getTreeLinks() as SessionTreeLinks;
        expect(links).toBeDefined();
        expect(linksOutline(links)).toEqual(shapeOutline(store.getTreeShape()));
      } finally {
        store.close();
      }
    }
  });
});
