import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { testPostgres } from "@arbor/test-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturesDir } from "../__fixtures__/describe-store";
import { SessionStorageError } from "../storage/session-storage-error";
import { exportPostgresSession } from "./export-postgres-session";
import { importPostgresSession } from "./import-postgres-session";
import { listPostgresSessions } from "./list-postgres-sessions";
import { openPostgresSessionStore } from "./open-postgres-session-store";
import { migratePostgres } from "./postgres-migrations";

const db = await testPostgres();
const problem = db.skipReason();
const target = db.target("storage");

describe.skipIf(problem !== undefined)(`PostgreSQL backend${problem ? ` (skipped: ${problem})` : ""}`, () => {
  beforeAll(async () => {
    await migratePostgres(target);
  });
  afterAll(async () => {
    await db.dropSchema(target.schema);
  });

  it("migrates once: a second call applies nothing, and the version is recorded", async () => {
    expect(await migratePostgres(target)).toEqual({ applied: [], version: 1 });
    const rows = await db.query(`SELECT version FROM "${target.schema}".schema_migrations`);
    expect(rows).toEqual([{ version: 1 }]);
    const fresh = db.target("migrate");
    try {
      const both = await Promise.all([migratePostgres(fresh), migratePostgres(fresh)]);
      expect(both.flatMap((result) => result.applied)).toEqual([1]);
    } finally {
      await db.dropSchema(fresh.schema);
    }
  });

  const fixtures = readdirSync(fixturesDir).filter((name) => name.endsWith(".jsonl"));
  it.each(fixtures)("imports %s and exports the exact bytes", async (fixture) => {
    const text = readFileSync(join(fixturesDir, fixture), "utf8");
    const id = await importPostgresSession(target, text, { sessionId: `fixture-${fixture}` });
    expect(id).toBe(`fixture-${fixture}`);
    expect(await exportPostgresSession(target, id)).toBe(text);
  });

  it("keeps text without a final newline, blank lines and unknown types byte for byte", async () => {
    const text = `{"type":"session","version":3,"id":"odd","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/x"}\n\n{"type":"future_thing","id":"a1","parentId":null,"timestamp":"t","zz":  [1, 2]}\r\n{"type":"message","id":"b`;
    await importPostgresSession(target, text);
    expect(await exportPostgresSession(target, "odd")).toBe(text);
    const store = await openPostgresSessionStore(target, "odd", { mode: "read" });
    expect(store.getEntries().map((entry) => entry.type)).toEqual(["future_thing"]);
    expect(store.issues.map((issue) => issue.code)).toEqual(["SESSION_TAIL_TORN"]);
    store.close();
  });

  it("imports a session larger than one insert (lines and characters), in order, byte for byte", async () => {
    const head = `{"type":"session","version":3,"id":"big","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/x"}`;
    const lines = [head];
    for (let i = 0; i < 9000; i++) {
      const parentId = i === 0 ? null : `e${i - 1}`;
      // Every 1,000th line is 3 MB long, so the character limit cuts batches too.
      const content = i % 1000 === 999 ? "y".repeat(3 << 20) : `m${i} é`;
      lines.push(
        JSON.stringify({
          type: "message",
          id: `e${i}`,
          parentId,
          timestamp: "2024-01-01T00:00:01.000Z",
          message: { role: "user", content, timestamp: 1 },
        }),
      );
    }
    const text = `${lines.join("\n")}\n`;
    expect(await importPostgresSession(target, text)).toBe("big");
    expect(await exportPostgresSession(target, "big")).toBe(text);
    const store = await openPostgresSessionStore(target, "big", { mode: "read" });
    try {
      expect(store.getEntryCount()).toBe(9000);
      expect(store.getPathIds().slice(-2)).toEqual(["e8998", "e8999"]);
    } finally {
      store.close();
    }
  });

  it("refuses to import over an existing session (SESSION_EXISTS), changing nothing", async () => {
    const text = readFileSync(join(fixturesDir, "branches.jsonl"), "utf8");
    await importPostgresSession(target, text, { sessionId: "taken" });
    const error = await importPostgresSession(target, `${text}{"x":1}\n`, { sessionId: "taken" }).catch(
      (e) => e,
    );
    expect(SessionStorageError.isInstance(error) && error.code).toBe("SESSION_EXISTS");
    expect(await exportPostgresSession(target, "taken")).toBe(text);
  });

  it("writes a new session that reads back with the same entries, and lists it with its name", async () => {
    const store = await openPostgresSessionStore(target, "new-one", { cwd: "/work" });
    const user = store.appendMessage({ role: "user", content: "hello", timestamp: 1 });
    store.appendSessionInfo("first session");
    store.appendLabelChange(user.id, "start");
    await store.flush();
    const written = store.getEntries();
    store.close();
    const reader = await openPostgresSessionStore(target, "new-one", { mode: "read" });
    expect(reader.getEntries()).toEqual(written);
    expect(reader.header.cwd).toBe("/work");
    expect(reader.getSessionName()).toBe("first session");
    expect(reader.getLabel(user.id)).toBe("start");
    const error = (() => {
      try {
        reader.appendMessage({ role: "user", content: "no", timestamp: 2 });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(SessionStorageError.isInstance(error) && error.code).toBe("SESSION_WRITE_FAILED");
    reader.close();
    const listed = (await listPostgresSessions(target)).find((session) => session.id === "new-one");
    expect(listed).toMatchObject({ cwd: "/work", name: "first session", entryCount: 3 });
  });

  it("rewrites a version-2 session on its first append, keeping the original text as a backup", async () => {
    const text = readFileSync(join(fixturesDir, "v2-session.jsonl"), "utf8");
    const id = await importPostgresSession(target, text, { sessionId: "old-v2" });
    const store = await openPostgresSessionStore(target, id);
    const before = store.getEntries().length;
    store.appendMessage({ role: "user", content: "after migration", timestamp: 5 });
    await store.flush();
    store.close();
    const reader = await openPostgresSessionStore(target, id, { mode: "read" });
    expect(reader.header.version).toBe(3);
    expect(reader.getEntries().length).toBe(before + 1);
    reader.close();
    const backups = await db.query<{ content: string }>(
      `SELECT content FROM "${target.schema}".session_backups WHERE session_id = $1`,
      [id],
    );
    expect(backups.map((row) => row.content)).toEqual([text]);
  });

  it("names the database session in the store's errors and issues: URL without password and id", async () => {
    const url = new URL(target.connectionString);
    url.password = "";
    const store = await openPostgresSessionStore(target, "named-errors");
    store.appendMessage({ role: "user", content: "hi", timestamp: 1 });
    const error = (() => {
      try {
        store.appendLabelChange("no-such-entry", "x");
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    store.close();
    expect(error?.message).toContain(`#named-errors`);
    expect(error?.message).toContain(`postgresql://${url.username ? `${url.username}@` : ""}${url.host}`);
    expect(error?.message).not.toContain("in-memory session");
    expect((error as { sessionFile?: string }).sessionFile).toMatch(
      /^postgresql:\/\/.*\?schema=t_storage_[0-9a-f]+#named-errors$/,
    );
    const text = `{"type":"session","version":3,"id":"bad-entry","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/x"}\n{"type":"message","id":"m1","parentId":null,"timestamp":"t","message":5}\n`;
    await importPostgresSession(target, text);
    const reader = await openPostgresSessionStore(target, "bad-entry", { mode: "read" });
    reader.getProjection();
    reader.close();
    expect(reader.issues.map((issue) => issue.code)).toEqual(["SESSION_ENTRY_INVALID"]);
    expect(reader.issues[0]?.message).toMatch(/^postgresql:\/\/.*#bad-entry:2: entry m1 is invalid/);
  });

  it("reports a read of a missing session as SESSION_NOT_FOUND and an unmigrated schema as SESSION_READ_FAILED", async () => {
    const missing = await openPostgresSessionStore(target, "nope", { mode: "read" }).catch((e) => e);
    expect(missing.code).toBe("SESSION_NOT_FOUND");
    const bare = await openPostgresSessionStore({ ...target, schema: "t_never_migrated" }, "x").catch(
      (e) => e,
    );
    expect(bare.code).toBe("SESSION_READ_FAILED");
    expect(bare.message).toMatch(/migratePostgres/);
  });
});
