import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";
import { listSessionFiles, readJsonlLines } from "./helpers/session-files";

let server: TestLlmServer;
let dir: string;
let project: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => server.close());

beforeEach(() => {
  server.reset();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-cache-key-"));
  project = path.join(dir, "project");
  fs.mkdirSync(project);
  env = isolatedEnv({ HOME: dir, ARBOR_HOME: path.join(dir, "home"), OPENAI_API_KEY: "test-key" });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the CLI's OpenAI requests", () => {
  it("carry the saved session's id as prompt_cache_key, without any option", async () => {
    server.enqueue(textReply("Hello."));
    const run = await runCliProcess(
      ["-p", "hi", "--provider", "openai", "--model", "gpt-4.1", "--base-url", server.openaiBaseUrl],
      { env, cwd: project },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const [file] = listSessionFiles(path.join(dir, "home"));
    const header = readJsonlLines(file as string)[0];
    expect(header?.type).toBe("session");
    expect(typeof header?.id).toBe("string");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.route).toBe("openai-responses");
    const body = server.requests[0]?.body as { prompt_cache_key?: unknown } | undefined;
    expect(body?.prompt_cache_key).toBe(header?.id);
  });
});
