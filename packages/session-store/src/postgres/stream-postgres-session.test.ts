import { testPostgres } from "@arbor/test-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportPostgresSession } from "./export-postgres-session";
import { importPostgresSession } from "./import-postgres-session";
import { openPostgresSessionStore } from "./open-postgres-session-store";
import { migratePostgres } from "./postgres-migrations";
import { streamPostgresSession } from "./stream-postgres-session";

const db = await testPostgres();
const problem = db.skipReason();
const target = db.target("stream");

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of iterable) chunks.push(chunk);
  return chunks;
}

async function codeOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  return "no error";
}

const header = (id: string) =>
  `{"type":"session","version":3,"id":"${id}","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/x"}`;
const message = (id: string, parentId: string | null) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: "2024-01-01T00:00:01.000Z",
    message: { role: "user", content: `text of ${id} é`, timestamp: 1 },
  });

describe.skipIf(problem !== undefined)(
  `streamPostgresSession${problem ? ` (skipped: ${problem})` : ""}`,
  () => {
    beforeAll(async () => {
      await migratePostgres(target);
    });
    afterAll(async () => {
      await db.dropSchema(target.schema);
    });

    it("gives the export's exact text in chunks of batchLines lines, with or without a final newline", async () => {
      const lines = [header("s1")];
      for (let i = 0; i < 10; i++) lines.push(i === 4 ? "" : message(`e${i}`, i === 0 ? null : `e${i - 1}`));
      lines.push("not json at all");
      for (const [id, ending] of [
        ["s1", "\n"],
        ["s2", ""],
      ] as const) {
        const text = `${lines.join("\n").replace('"id":"s1"', `"id":"${id}"`)}${ending}`;
        await importPostgresSession(target, text);
        for (const batchLines of [1, 3, 12, 13, 4096]) {
          const chunks = await collect(streamPostgresSession(target, id, { batchLines }));
          expect(chunks.join(""), `${id}, ${batchLines} lines a chunk`).toBe(text);
          expect(chunks.join("")).toBe(await exportPostgresSession(target, id));
          // 12 lines: a chunk per batch, and the final newline on its own.
          expect(chunks.length).toBe(Math.ceil(12 / batchLines) + (ending === "" ? 0 : 1));
        }
      }
    });

    it("reads one snapshot: lines committed during the iteration are not part of it", async () => {
      const text = `${[header("live"), message("a", null), message("b", "a")].join("\n")}\n`;
      await importPostgresSession(target, text);
      const chunks: string[] = [];
      let appended = false;
      for await (const chunk of streamPostgresSession(target, "live", { batchLines: 1 })) {
        chunks.push(chunk);
        if (!appended) {
          appended = true;
          const store = await openPostgresSessionStore(target, "live");
          store.appendMessage({ role: "user", content: "later", timestamp: 2 });
          await store.flush();
          store.close();
        }
      }
      expect(chunks.join("")).toBe(text);
      expect(await exportPostgresSession(target, "live")).toContain("later");
    });

    it("refuses an unknown session before any chunk, and a bad batchLines", async () => {
      expect(await codeOf(() => collect(streamPostgresSession(target, "nobody")))).toBe("SESSION_NOT_FOUND");
      for (const batchLines of [0, -1, 1.5, Number.NaN]) {
        expect(await codeOf(() => collect(streamPostgresSession(target, "s1", { batchLines })))).toBe(
          "SESSION_OPTIONS_INVALID",
        );
      }
    });

    it("closes its connection when the reader stops early", async () => {
      // This process's export connections (the backend names them after the process id).
      const open = async () =>
        (
          await db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE $1",
            [`arbor-export % pid ${process.pid}`],
          )
        )[0]?.n;
      let during: number | undefined;
      for await (const chunk of streamPostgresSession(target, "s1", { batchLines: 2 })) {
        expect(chunk.length).toBeGreaterThan(0);
        during = await open();
        break;
      }
      expect(during).toBe(1);
      // The server drops the backend soon after the client ends.
      let after = await open();
      for (let tries = 0; after !== 0 && tries < 40; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = await open();
      }
      expect(after).toBe(0);
    });
  },
);
