import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { errorReply, startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";
import { readLastJsonlLine } from "./helpers/session-files";

const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
let server: TestLlmServer;
let dir: string;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-compact-"));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => server.reset());

function copyExample(name: string): string {
  const file = path.join(dir, name);
  fs.copyFileSync(EXAMPLE, file);
  return file;
}

function lastEntry(file: string) {
  return readLastJsonlLine(file);
}

const keyed = () =>
  isolatedEnv({
    HOME: dir,
    ARBOR_HOME: path.join(dir, "home"),
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  });

describe("arbor compact with a model", () => {
  it("falls back to the offline summarizer when no key is set, and says so", async () => {
    const file = copyExample("no-key.jsonl");
    const env = isolatedEnv({ HOME: dir, ARBOR_HOME: path.join(dir, "home") });
    const run = await runCliProcess(["compact", file, "--keep-recent-tokens", "4000"], { env, cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("with the offline summarizer (no ANTHROPIC_API_KEY set)");
    expect(lastEntry(file).type).toBe("compaction");
    expect(server.requests).toHaveLength(0);
  });

  it("summarizes with the configured model: history, then the split turn's prefix", async () => {
    const file = copyExample("model.jsonl");
    server.enqueue(
      textReply("## Goal\nPaginate GET /todos (model summary)."),
      textReply("## Original Request\nTODO_PAGE_SIZE."),
    );
    const run = await runCliProcess(
      [
        "compact",
        file,
        "--model",
        "claude-sonnet-4-6",
        "--keep-recent-tokens",
        "4000",
        "--instructions",
        "keep test names",
      ],
      { env: keyed(), cwd: dir },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("with anthropic/claude-sonnet-4-6.");
    expect(server.requests).toHaveLength(2);
    const history = JSON.stringify(server.requests[0]?.body);
    expect(history).toContain("keep test names");
    expect(history).toContain("GET /todos returns every todo at once");
    const entry = lastEntry(file);
    expect(entry.summary).toContain("Paginate GET /todos (model summary).");
    expect(entry.summary).toContain("TODO_PAGE_SIZE.");
    expect(entry.summary).toMatch(/<modified-files>\n/);
    expect(entry.usage.input).toBeGreaterThan(0);
  });

  it("uses the offline summarizer when the model fails, and warns", async () => {
    const file = copyExample("failing.jsonl");
    server.enqueue(
      errorReply(400, {
        type: "error",
        error: { type: "invalid_request_error", message: "summary refused" },
      }),
    );
    const run = await runCliProcess(
      ["compact", file, "--model", "claude-sonnet-4-6", "--keep-recent-tokens", "4000"],
      { env: keyed(), cwd: dir },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^arbor: the model summary failed \(.*summary refused.*\); used the offline summarizer\n$/,
    );
    expect(run.stdout).toContain("the offline summarizer (after the model failed)");
    expect(lastEntry(file).summary).toContain("## Goal");
  });
});
