import fs from "node:fs";
import os, { hostname } from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import {
  exportPostgresSession,
  openPostgresSessionStore,
  parsePostgresLocation,
} from "@arbor/session-store/postgres";
import { cliDatabase, testPostgres } from "@arbor/test-postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { PtySession } from "./helpers/pty-session";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

/**
 * `arbor -p … --session postgresql://…#<id>`, `arbor compact <location>` and the interactive
 * `/resume <location>` (in a terminal) through the built CLI: separate processes continue one session
 * in the database, a second writer is refused naming the holder, and what was answered is durable
 * (read back by a fresh process).
 */
const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
const db = await testPostgres();
const problem = db.skipReason();
const database = cliDatabase(db, "agent");
let server: TestLlmServer;
let dir: string;
let env: NodeJS.ProcessEnv;
let pty: PtySession | undefined;

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
      fs.mkdirSync(path.join(dir, "project"));
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
    afterEach(() => {
      pty?.kill();
      pty = undefined;
    });
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
      // Streamed from the database, the same bytes as the library's one-string export.
      const { target } = parsePostgresLocation(`${db.url.split("?")[0]}?schema=${database.schema}`);
      expect(fs.readFileSync(path.join(dir, "worker.jsonl"), "utf8")).toBe(
        await exportPostgresSession(target, "worker-session"),
      );
      // An unknown session: the store's own error, and nothing left at the output.
      const missing = await cli("export", `${database.url}#nobody`, "--jsonl", "-o", "nobody.jsonl");
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("no such session");
      expect(fs.readdirSync(dir).filter((name) => name.startsWith("nobody"))).toEqual([]);
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

    it("/resume <location> switches to the database session, answers in it, and the answer is in the database", async () => {
      server.reset(); // a reply an earlier test enqueued for a refused run is never taken
      const location = `${database.url}#resume-copy`;
      expect((await cli("import", EXAMPLE, "--to", location)).stdout.trim()).toBe(location);
      pty = new PtySession([], { cwd: path.join(dir, "project"), env });
      let at = await pty.waitFor("› ");
      pty.sendLine(`/resume ${location}`);
      at = await pty.waitFor(`Resumed ${location} (125 entries).`, { from: at });
      server.enqueue(textReply("Answered from the database session."));
      pty.sendLine("what did we paginate?");
      at = await pty.waitFor("Answered from the database session.", { from: at });
      // The session's history went to the model with the question.
      expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("paginate");
      pty.type("\u0004");
      expect(await pty.exited).toBe(0);
      const { target } = parsePostgresLocation(`${db.url.split("?")[0]}?schema=${database.schema}`);
      const reader = await openPostgresSessionStore(target, "resume-copy", { mode: "read" });
      const last = reader.getProjection().messages.slice(-2);
      reader.close();
      expect(last.map((message) => message.role)).toEqual(["user", "assistant"]);
      expect(JSON.stringify(last)).toContain("Answered from the database session.");
    });

    const lockless = db.skipReason("separate-backends");
    it.skipIf(lockless !== undefined)(
      `/resume refuses a session another writer holds, naming it, and stays in the current one${lockless ? ` (skipped: ${lockless})` : ""}`,
      async () => {
        const { target } = parsePostgresLocation(`${db.url.split("?")[0]}?schema=${database.schema}`);
        server.reset();
        const holder = await openPostgresSessionStore(target, "held-for-resume", { cwd: dir });
        holder.appendMessage({ role: "user", content: "held", timestamp: 1 });
        await holder.flush();
        try {
          pty = new PtySession([], { cwd: path.join(dir, "project"), env });
          let at = await pty.waitFor("› ");
          pty.sendLine(`/resume ${database.url}#held-for-resume`);
          at = await pty.waitFor("is being written by another writer", { from: at });
          expect(pty.screen.slice(at)).toContain(`${hostname()} pid ${process.pid}`);
          server.enqueue(textReply("Still here."));
          pty.sendLine("are you there?");
          await pty.waitFor("Still here.", { from: at });
          pty.type("\u0004");
          expect(await pty.exited).toBe(0);
        } finally {
          holder.close();
        }
        const reader = await openPostgresSessionStore(target, "held-for-resume", { mode: "read" });
        expect(reader.getEntries().map((entry) => entry.type)).toEqual(["message"]);
        reader.close();
      },
    );
  },
);
