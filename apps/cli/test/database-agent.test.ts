import fs from "node:fs";
import os, { hostname } from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { openPostgresSessionStore, parsePostgresLocation } from "@arbor/session-store/postgres";
import { cliDatabase, testPostgres } from "@arbor/test-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

/**
 * `arbor -p … --session postgresql://…#<id>` and `arbor compact <location>` through the built CLI:
 * separate processes continue one session in the database, a second writer is refused naming the
 * holder, and what was answered is durable (read back by a fresh process).
 */
const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
const db = await testPostgres();
const problem = db.skipReason();
const database = cliDatabase(db, "agent");
let server: TestLlmServer;
let dir: string;
let env: NodeJS.ProcessEnv;

async function cli(...args: string[]) {
  return runCliProcess(args, { env, cwd: dir });
}

describe.skipIf(problem !== undefined)(
  `the agent on a database session${problem ? ` (skipped: ${problem})` : ""}`,
  () => {
    beforeAll(async () => {
      assertCliBuilt();
      server = await startWireServer({ apiKey: "test-key" });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-database-agent-"));
      env = isolatedEnv({
        HOME: dir,
        ARBOR_HOME: path.join(dir, "home"),
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
        ...database.env,
      });
      // Migrates the schema (the agent opens sessions in an existing schema).
      const run = await cli("import", EXAMPLE, "--to", database.url);
      expect(run.code).toBe(0);
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      fs.rmSync(dir, { recursive: true, force: true });
      await database.drop();
    });

    it("processes one after another continue the same session; a fresh reader sees every answer", async () => {
      const location = `${database.url}#worker-session`;
      server.enqueue(textReply("first answer"));
      const first = await cli("-p", "first question", "--session", location);
      expect(first.stderr).toBe("");
      expect(first.stdout).toBe("first answer\n");
      server.enqueue(textReply("second answer"));
      const second = await cli("-p", "second question", "--session", location);
      expect(second.stdout).toBe("second answer\n");
      // The second process sent the first exchange as context.
      expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("first answer");
      const exported = await cli("export", location, "--jsonl", "-o", "worker.jsonl");
      expect(exported.code).toBe(0);
      const roles = fs
        .readFileSync(path.join(dir, "worker.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.type === "message")
        .map((entry) => `${entry.message.role}`);
      expect(roles).toEqual(["user", "assistant", "user", "assistant"]);
    });

    const exclusive = db.skipReason("separate-backends");
    it.skipIf(exclusive !== undefined)(
      `refuses a second writer with SESSION_LOCKED naming the holder, and changes nothing${exclusive ? ` (skipped: ${exclusive})` : ""}`,
      async () => {
        const { target } = parsePostgresLocation(`${db.url.split("?")[0]}?schema=${database.schema}`);
        const holder = await openPostgresSessionStore(target, "held-session", { cwd: dir });
        holder.appendMessage({ role: "user", content: "held", timestamp: 1 });
        await holder.flush();
        try {
          server.enqueue(textReply("must not be written"));
          const run = await cli("-p", "try", "--session", `${database.url}#held-session`);
          expect(run.code).toBe(1);
          expect(run.stderr).toContain("is being written by another writer");
          expect(run.stderr).toContain(`${hostname()} pid ${process.pid}`);
        } finally {
          holder.close();
        }
        const reader = await openPostgresSessionStore(target, "held-session", { mode: "read" });
        expect(reader.getEntries().map((entry) => entry.type)).toEqual(["message"]);
        reader.close();
      },
    );

    it("compact <location> appends the compaction durably in the database", async () => {
      const location = `${database.url}#019ce1a2-5f3b-7c41-9a2e-3d8f0b6c4e17`;
      const run = await cli("compact", location, "--offline", "--keep-recent-tokens", "2000");
      expect(run.stderr).toBe("");
      expect(run.stdout).toMatch(/^Compacted postgresql:.* with the offline summarizer/);
      const inspected = JSON.parse((await cli("inspect", location, "--json")).stdout);
      expect(inspected.path).toHaveLength(112);
      const tree = await cli("tree", location);
      expect(tree.stdout).toMatch(/◆/);
    });
  },
);
