import { readFileSync } from "node:fs";
import path from "node:path";
import { buildSessionPath, type SessionEntry } from "@arbor/session-store";

/** Folder of the hand-made fixture sessions (written by scripts/make-fixtures.mjs). */
export const FIXTURE_DIR = path.resolve(import.meta.dirname, "../../__fixtures__");

/** A fixture session loaded for tests: its entries (header dropped) and path helpers. */
export interface LoadedFixture {
  entries: SessionEntry[];
  byId: Map<string, SessionEntry>;
  /** Root→leaf branch of `leafId`. */
  branch(leafId: string): SessionEntry[];
  getBranch(id: string): SessionEntry[];
  getEntry(id: string): SessionEntry | undefined;
}

/** Reads `src/__fixtures__/<name>` (a pi v3 JSONL session). Throws on a malformed line (fixtures are ours). */
export function loadFixture(name: string): LoadedFixture {
  const lines = readFileSync(path.join(FIXTURE_DIR, name), "utf8")
    .split("\n")
    .filter((line) => line.trim());
  const entries = lines.slice(1).map((line) => JSON.parse(line) as SessionEntry);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const branch = (leafId: string) => buildSessionPath(entries, leafId, byId);
  return { entries, byId, branch, getBranch: branch, getEntry: (id) => byId.get(id) };
}
