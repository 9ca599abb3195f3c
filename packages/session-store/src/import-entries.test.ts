import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createInMemorySessionStore } from "./create-in-memory-session-store";
import { createSessionStore } from "./create-session-store";
import { openSessionStore } from "./open-session-store";
import type { SessionEntry } from "./session-entry";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "arbor-import-entries-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function caught(run: () => unknown): Error & { code?: string; entryId?: string; sessionFile?: string } {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

const codeOf = (run: () => unknown): unknown => caught(run).code;

describe("SessionStore.importEntries", () => {
  it("keeps a copy in step with a session, ids, parents and unknown types kept, leaf at the last", () => {
    const file = join(dir, "s.jsonl");
    const session = createSessionStore({ path: file, cwd: "/p" });
    session.appendMessage({ role: "user", content: "one", timestamp: 1 });
    const copy = createInMemorySessionStore({ entries: [session.header, ...session.getBranch()] });

    // The session grows; the copy takes only what is new, then goes on its own side branch.
    const two = session.appendMessage({ role: "user", content: "two", timestamp: 2 });
    const future = {
      type: "future_thing",
      id: "f1",
      parentId: two.id,
      timestamp: "2026-12-03T00:00:00.000Z",
      x: 1,
    };
    copy.importEntries([two, future as unknown as SessionEntry]);
    expect(copy.leafId).toBe("f1");
    copy.appendMessage({ role: "user", content: "draft", timestamp: 3 });
    copy.branch("f1");
    expect(copy.getBranch()).toEqual([...session.getBranch(), future]);
    expect(copy.getProjection().messages).toEqual(session.getProjection().messages);
    session.close();

    // Into a file: written as given, read back the same.
    const target = createSessionStore({ path: join(dir, "t.jsonl"), cwd: "/p" });
    target.importEntries(copy.getBranch());
    target.close();
    const reopened = openSessionStore(join(dir, "t.jsonl"));
    expect(reopened.getBranch()).toEqual(copy.getBranch());
    reopened.close();
  });

  it("refuses a batch with an entry it cannot place, naming it, and writes none of the batch", () => {
    const file = join(dir, "s.jsonl");
    const store = createSessionStore({ path: file, cwd: "/p" });
    const first = store.appendMessage({ role: "user", content: "one", timestamp: 1 });
    const entry = (id: string, parentId: string | null) =>
      ({
        type: "message",
        id,
        parentId,
        timestamp: "2026-12-03T00:00:00.000Z",
        message: { role: "user", content: id, timestamp: 1 },
      }) as unknown as SessionEntry;
    const before = readFileSync(file, "utf8");

    expect(codeOf(() => store.importEntries([entry("a", first.id), entry(first.id, "a")]))).toBe(
      "SESSION_ENTRY_INVALID",
    );
    expect(codeOf(() => store.importEntries([entry("a", first.id), entry("a", "a")]))).toBe(
      "SESSION_ENTRY_INVALID",
    );
    expect(codeOf(() => store.importEntries([entry("a", first.id), entry("b", "nowhere")]))).toBe(
      "ENTRY_NOT_FOUND",
    );
    expect(
      codeOf(() => store.importEntries([entry("a", first.id), { id: "c" } as unknown as SessionEntry])),
    ).toBe("SESSION_ENTRY_INVALID");
    expect(codeOf(() => store.importEntries([null as unknown as SessionEntry]))).toBe(
      "SESSION_ENTRY_INVALID",
    );
    const error = caught(() => store.importEntries([entry("a", first.id), entry("b", "nowhere")]));
    expect(error.message).toContain('"nowhere" of entries[1] (b)');
    expect(error.entryId).toBe("b");
    expect(error.sessionFile).toBe(file);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(store.getEntry("a")).toBeUndefined();
    expect(store.leafId).toBe(first.id);

    // A root (parent null) and a chain within the batch are fine.
    store.importEntries([entry("r", null), entry("s", "r")]);
    expect(store.getBranch().map((e) => e.id)).toEqual(["r", "s"]);
    store.close();
  });
});
