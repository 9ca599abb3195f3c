import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { openSessionStore, type SessionStore } from "@arbor/session-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExportData } from "../build-export-data";
import type { ExportData } from "../export-data";
import { toExportMessage } from "../to-export-message";
import { projectLeaf } from "./project-leaf";

const REPO = path.resolve(__dirname, "../../../../..");
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-project-leaf-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function exportOf(store: SessionStore): ExportData {
  return buildExportData(store, {
    fileName: "s.jsonl",
    exportedAt: "2026-01-01T00:00:00.000Z",
    arborVersion: "test",
    clipChars: 1_000_000,
  });
}

/** Compares the page's projection with the session store's for each given leaf. */
function expectSameProjections(store: SessionStore, leaves: readonly string[]): number {
  const data = exportOf(store);
  const indexOf = new Map(data.entries.map((entry, index) => [entry.id, index]));
  let compared = 0;
  for (const leafId of leaves) {
    const expected = store.getProjection(leafId);
    const actual = projectLeaf(data.entries, indexOf.get(leafId) as number);
    expect(actual.items.map((item) => data.entries[item.entry]?.id)).toEqual(
      expected.entries.map((entry) => entry.sourceEntry.id),
    );
    const clip = { clipChars: 1_000_000 };
    // Compared as JSON text: a deep equality over thousands of messages per leaf is much slower.
    expect(JSON.stringify(actual.items.map((item) => item.messages))).toBe(
      JSON.stringify(
        expected.entries.map((entry) => entry.messages.map((message) => toExportMessage(message, clip))),
      ),
    );
    compared++;
  }
  return compared;
}

describe("projectLeaf (the page's projection) equals the session store's", () => {
  it("at every entry of the example session", () => {
    const store = openSessionStore(path.join(REPO, "examples/todo-api-pagination.jsonl"), {
      storage: { readOnly: true },
    });
    try {
      const ids = store.getEntries().map((entry) => entry.id);
      expect(expectSameProjections(store, ids)).toBe(125);
    } finally {
      store.close();
    }
  });

  it("at every 25th entry of a real pi session with two compactions", () => {
    const file = path.join(dir, "pi.jsonl");
    fs.writeFileSync(
      file,
      gunzipSync(fs.readFileSync("/work/shared/pi-sessions/pi-mono-before-compaction.jsonl.gz")),
    );
    const store = openSessionStore(file, { storage: { readOnly: true } });
    try {
      const entries = store.getEntries();
      expect(entries.filter((entry) => entry.type === "compaction")).toHaveLength(2);
      const ids = entries
        .filter((_, index) => index % 25 === 0 || index > entries.length - 5)
        .map((entry) => entry.id);
      expect(expectSameProjections(store, ids)).toBe(ids.length);
    } finally {
      store.close();
    }
  });

  it("at every leaf and every 250th entry of a generated session with edits, compactions and branches", () => {
    const file = path.join(dir, "generated.jsonl");
    execFileSync(process.execPath, [
      path.join(REPO, "bench/generate-session.mjs"),
      "--entries",
      "5000",
      "--seed",
      "4",
      "--out",
      file,
    ]);
    const store = openSessionStore(file, { storage: { readOnly: true } });
    try {
      const entries = store.getEntries();
      const types = new Set(entries.map((entry) => entry.type));
      for (const type of ["compaction", "context_edit", "branch_summary", "label"])
        expect(types).toContain(type);
      const parents = new Set(entries.map((entry) => entry.parentId));
      const leaves = entries.filter((entry) => !parents.has(entry.id)).map((entry) => entry.id);
      expect(leaves.length).toBeGreaterThan(5);
      const sample = entries.filter((_, index) => index % 250 === 0).map((entry) => entry.id);
      expect(expectSameProjections(store, [...leaves, ...sample])).toBe(leaves.length + sample.length);
    } finally {
      store.close();
    }
  }, 120_000);

  it("gives an empty projection for leaf -1 and stops at a parent cycle", () => {
    expect(projectLeaf([], -1)).toEqual({ leaf: -1, path: [], items: [], compaction: -1, replaced: [] });
    const entry = (id: string, parent: number) => ({
      id,
      parent,
      type: "message",
      kind: "user",
      time: "",
      preview: id,
      messages: [],
      tokens: 0,
    });
    const looped = projectLeaf([entry("a", 1), entry("b", 0)], 1);
    expect(looped.path).toEqual([0, 1]);
  });
});
