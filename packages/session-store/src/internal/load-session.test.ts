import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TestStorage } from "../__fixtures__/test-storage";
import { openSessionStore } from "../open-session-store";
import { SessionStore } from "../session-store";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "arbor-load-session-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const line = (value: Record<string, unknown>) => `${JSON.stringify(value)}\n`;
const text = (message: { content: unknown }) =>
  typeof message.content === "string" ? message.content : (message.content as { text: string }[])[0]?.text;

describe("a session migrated in memory at open (version 1 or 2)", () => {
  it("resolves a parent id held by two entries to the last of them, as pi does", () => {
    const file = join(dir, "dup.jsonl");
    const entry = (id: string, parentId: string | null, role: string, body: string, second: number) => ({
      type: "message",
      id,
      parentId,
      timestamp: `2025-01-01T00:00:0${second}.000Z`,
      message: { role, content: role === "user" ? body : [{ type: "text", text: body }], timestamp: second },
    });
    writeFileSync(
      file,
      line({ type: "session", version: 2, id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w" }) +
        line(entry("aaa", null, "user", "first", 1)) +
        line(entry("dup", "aaa", "assistant", "second", 2)) +
        line(entry("dup", "aaa", "assistant", "third", 3)) +
        line(entry("zzz", "dup", "user", "fourth", 4)),
    );
    const store = openSessionStore(file, { storage: { readOnly: true } });
    // pi 1.6.0 projects ["first", "third", "fourth"] for this file (checked against it).
    expect(store.getProjection().messages.map((m) => text(m as { content: unknown }))).toEqual([
      "first",
      "third",
      "fourth",
    ]);
    expect(store.getEntry("dup")?.timestamp).toBe("2025-01-01T00:00:03.000Z");
    store.close();
  });

  it("leaves the entries of a backend that hands out the objects it keeps unchanged", () => {
    class KeepingStorage extends TestStorage {
      readonly kept = new Map<number, Record<string, unknown>>();
      override readEntry(index: number): Record<string, unknown> {
        const kept = this.kept.get(index);
        if (kept !== undefined) return kept;
        const entry = super.readEntry(index);
        this.kept.set(index, entry);
        return entry;
      }
    }
    const storage = new KeepingStorage([
      { type: "session", id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w" },
      { type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "a" } },
      { type: "message", timestamp: "2025-01-01T00:00:02.000Z", message: { role: "user", content: "b" } },
    ]);
    const store = new SessionStore(storage);
    expect(store.getProjection().messages).toHaveLength(2);
    expect(storage.kept.size).toBe(2);
    for (const entry of storage.kept.values()) {
      expect(entry).not.toHaveProperty("id");
      expect(entry).not.toHaveProperty("parentId");
    }
    store.close();
  });
});
