import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSessionStore, type SessionStore } from "@arbor/session-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExportData } from "./build-export-data";
import { exportSession } from "./export-session";
import { renderExportMarkdown } from "./render-export-markdown";
import { DEFAULT_EXPORT_CLIP_CHARS } from "./to-export-message";

const REPO = path.resolve(__dirname, "../../../..");
const NOW = new Date("2026-01-01T00:00:00.000Z");
let dir: string;
let store: SessionStore;
let leaves: string[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-export-session-"));
  const file = path.join(dir, "generated.jsonl");
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
