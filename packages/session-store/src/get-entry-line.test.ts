import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createInMemorySessionStore } from "./create-in-memory-session-store";
import { createSessionStore } from "./create-session-store";
import { openSessionStore } from "./open-session-store";

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "arbor-entry-line-"));
  file = join(dir, "s.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A session of three messages, the second one's text with non-ASCII characters and escapes. */
function writeSession(): string[] {
  const store = createSessionStore({ path: file, cwd: "/p" });
  const ids = ["first", 'é "quoted"\n日本語', "third"].map(
    (text) => store.appendMessage({ role: "user", content: text, timestamp: 1 }).id,
  );
  store.close();
  return ids;
}

describe("SessionStore.getEntryLine", () => {
  it("gives the bytes of an entry's line as in the file, unchecked, from a JSONL file", () => {
    const ids = writeSession();
    const lines = readFileSync(file, "utf8").split("\n");
    const store = openSessionStore(file, { storage: { readOnly: true }, validate: "lazy" });
    try {
      for (const [at, id] of ids.entries()) {
        const line = store.getEntryLine(id);
        expect(Buffer.from(line as Uint8Array).toString("utf8")).toBe(lines[at + 1]);
      }
      // Nothing was read as an entry, so nothing was checked.
      expect(store.validatedEntryCount).toBe(0);
      expect(store.getEntryLine("nope")).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it("gives a line that is not well-formed as it is, and the entry read then reports it", () => {
    const ids = writeSession();
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = (lines[2] as string).replace("quoted", "quo\u0001ted");
    writeFileSync(file, lines.join("\n"));
    const store = openSessionStore(file, { storage: { readOnly: true }, validate: "lazy" });
    try {
      expect(Buffer.from(store.getEntryLine(ids[1] as string) as Uint8Array).toString("utf8")).toBe(lines[2]);
      expect(store.issues).toHaveLength(0);
      expect(store.getEntry(ids[1] as string)).toBeUndefined();
      expect(store.issues[0]?.code).toBe("SESSION_LINE_CORRUPT");
      expect(store.issues[0]?.line).toBe(3);
      // Left out from then on.
      expect(store.getEntryLine(ids[1] as string)).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it("gives the lines of an in-memory session, and none for an entry appended in this process", () => {
    const ids = writeSession();
    const store = createInMemorySessionStore({ content: readFileSync(file, "utf8") });
    expect(Buffer.from(store.getEntryLine(ids[2] as string) as Uint8Array).toString("utf8")).toContain(
      '"third"',
    );
    const appended = store.appendMessage({ role: "user", content: "new", timestamp: 2 }).id;
    expect(store.getEntryLine(appended)).toBeUndefined();
    expect(store.getEntry(appended)?.id).toBe(appended);
  });
});
