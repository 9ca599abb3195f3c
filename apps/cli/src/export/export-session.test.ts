import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSessionStore, type SessionStore } from "@arbor/session-store";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BuildExportDataOptions, buildExportData, buildExportStream } from "./build-export-data";
import { exportSession } from "./export-session";
import { renderExportMarkdown } from "./render-export-markdown";
import { DEFAULT_EXPORT_CLIP_CHARS } from "./to-export-message";

const REPO = path.resolve(__dirname, "../../../..");
const NOW = new Date("2026-01-01T00:00:00.000Z");
let dir: string;
let file: string;
let store: SessionStore;
let leaves: string[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-export-session-"));
  file = path.join(dir, "generated.jsonl");
  const generator = await import(path.join(REPO, "bench/generate-session.mjs"));
  // Branches, compactions, context edits, branch summaries, labels and large tool outputs.
  generator.writeSessionFile(file, { entries: 3000, seed: 5 });
  store = openSessionStore(file, { storage: { readOnly: true } });
  const ids = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .slice(1)
    .map((line) => JSON.parse(line).id as string);
  leaves = [ids.at(-1) as string, ids[1200] as string, ids[40] as string];
});
afterAll(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The Markdown as made from the whole table of exported entries (what the export did before). */
function fromTable(leafId: string): string {
  const data = buildExportData(store, {
    leafId,
    fileName: "generated.jsonl",
    exportedAt: NOW.toISOString(),
    arborVersion: "test",
    clipChars: DEFAULT_EXPORT_CLIP_CHARS,
  });
  const indexOf = new Map(data.entries.map((entry, index) => [entry.id, index]));
  const pathIndices = store.getPathIds(leafId).map((id) => indexOf.get(id) as number);
  return renderExportMarkdown(data, pathIndices);
}

describe("exportSession, Markdown", () => {
  it("writes the path one entry at a time, in parts, the same text as from the whole table", () => {
    for (const leafId of leaves) {
      const parts: string[] = [];
      const result = exportSession(store, {
        format: "md",
        leafId,
        output: "-",
        cwd: dir,
        arborVersion: "test",
        stdout: { write: (part: string) => parts.push(part) },
        now: NOW,
      });
      const text = parts.join("");
      expect(text).toBe(fromTable(leafId));
      expect(result.pathLength).toBe(store.getPathIds(leafId).length);
      expect(result.entries).toBe(store.getEntryCount());
      expect(result.bytes).toBe(Buffer.byteLength(text));
      // A long path comes in several parts of about a megabyte (never the whole text at once).
      if (leafId === leaves[0]) {
        expect(text.length).toBeGreaterThan(2 << 20);
        expect(parts.length).toBeGreaterThan(2);
      }
      expect(Math.max(...parts.map((part) => part.length))).toBeLessThan((1 << 20) + 200_000);
    }
  });
});

describe("buildExportStream", () => {
  const options: BuildExportDataOptions = {
    fileName: "generated.jsonl",
    exportedAt: NOW.toISOString(),
    arborVersion: "test",
    clipChars: DEFAULT_EXPORT_CLIP_CHARS,
  };
  const HIDDEN_CORRUPTION = path.join(
    REPO,
    "packages/session-store/src/__fixtures__/sessions/hidden-corruption.jsonl",
  );

  /** The streamed export (head and every chunk) against buildExportData's, and whether all entries were read at once. */
  function compare(opened: SessionStore, leafId?: string) {
    const getEntries = vi.spyOn(opened, "getEntries");
    const stream = buildExportStream(opened, { ...options, leafId }, 700);
    const streamed = [...stream.chunks()].flat();
    const readAllFirst = getEntries.mock.calls.length > 0;
    getEntries.mockRestore();
    const { entries, ...head } = buildExportData(opened, { ...options, leafId });
    expect(stream.head).toEqual(head);
    expect(streamed).toEqual(entries);
    expect(streamed.map((_, index) => stream.entryAt(index))).toEqual(entries);
    expect([...stream.indexOf]).toEqual(entries.map((entry, index) => [entry.id, index]));
    return readAllFirst;
  }

  it("reads each entry as its chunk is made when every entry was checked at the open", () => {
    const full = openSessionStore(file, { storage: { readOnly: true }, validate: "full" });
    try {
      for (const leafId of leaves) expect(compare(full, leafId)).toBe(false);
    } finally {
      full.close();
    }
  });

  it("reads every entry first when lines may still turn out corrupt (lazy validation), the same data", () => {
    const lazy = openSessionStore(file, { storage: { readOnly: true } });
    try {
      expect(compare(lazy, leaves[1])).toBe(true);
      // Once every entry has been read (and checked), none can turn out corrupt any more.
      expect(compare(lazy, leaves[1])).toBe(false);
    } finally {
      lazy.close();
    }
  });

  it("leaves out a line found corrupt, as getEntries does (a damaged file is read whole first)", () => {
    const full = openSessionStore(HIDDEN_CORRUPTION, { storage: { readOnly: true }, validate: "full" });
    try {
      expect(full.issues.length).toBeGreaterThan(0);
      expect(compare(full)).toBe(true);
      expect(buildExportData(full, options).entries.length).toBe(full.getEntries().length);
    } finally {
      full.close();
    }
  });
});
