import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";
import { readJsonlLines } from "./helpers/session-files";

let server: TestLlmServer;
let dir: string;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "local-key" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-auto-"));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("auto-compaction with a small-window model from a models file", () => {
  it("compacts between turns when the context crosses the threshold, then finishes the run", async () => {
    const project = path.join(dir, "project");
    fs.mkdirSync(path.join(project, ".arbor"), { recursive: true });
    fs.writeFileSync(
      path.join(project, ".arbor/models.json"),
      JSON.stringify({
        models: [
          {
            id: "local-8k",
            provider: "openai-compatible",
            api: "openai-chat",
            baseUrl: server.openaiBaseUrl,
            contextWindow: 8192,
            maxTokens: 1024,
          },
        ],
      }),
    );
    fs.writeFileSync(
      path.join(project, ".arbor/settings.json"),
      JSON.stringify({ compaction: { reserveTokens: 2000, keepRecentTokens: 1000 } }),
    );
    const log = Array.from(
      { length: 300 },
      (_, index) => `2026-03-12T09:${String(index % 60).padStart(2, "0")} GET /todos 200 ${index}ms`,
    );
    fs.writeFileSync(path.join(project, "access.log"), `${log.join("\n")}\n`);

    const prompt = "Read access.log and tell me the slowest request.";
    server.enqueue(
      // 7000 prompt tokens reported: above the threshold 8192 - 2000 once the tool result is added.
      toolCallReply("read", { path: "access.log" }, { usage: { input: 7000, output: 20 } }),
      textReply("## Original Request\nFind the slowest request in access.log."),
      textReply("The slowest request took 299ms.", { usage: { input: 2500, output: 12 } }),
    );
    const env = isolatedEnv({
      HOME: dir,
      ARBOR_HOME: path.join(dir, "home"),
      OPENAI_COMPATIBLE_API_KEY: "local-key",
    });
    const run = await runCliProcess(
      ["-p", prompt, "--model", "local-8k", "--session", "s.jsonl", "--trust-project"],
      {
        env,
        cwd: project,
      },
    );
    expect(run.stdout).toBe("The slowest request took 299ms.\n");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^arbor: compacted the context \(threshold, model summary\): ~[\d,]+ → ~[\d,]+ tokens\n$/,
    );

    // Three requests: the turn, the summary of the split turn's beginning, the next turn.
    expect(server.requests.map((request) => request.route)).toEqual([
      "openai-chat",
      "openai-chat",
      "openai-chat",
    ]);
    const summaryRequest = JSON.stringify(server.requests[1]?.body);
    expect(summaryRequest).toContain(prompt);
    const lastRequest = JSON.stringify(server.requests[2]?.body);
    expect(lastRequest).toContain("Find the slowest request in access.log.");
    expect(lastRequest).not.toContain(prompt);

    const entries = readJsonlLines(path.join(project, "s.jsonl"));
    const compaction = entries.find((entry) => entry.type === "compaction");
    expect(compaction).toMatchObject({ fromHook: false, details: { readFiles: [], modifiedFiles: [] } });
    const kept = entries.find((entry) => entry.id === compaction?.firstKeptEntryId);
    expect(kept?.message).toMatchObject({ role: "assistant" });
    expect(entries.at(-1)?.message).toMatchObject({ role: "assistant", stopReason: "stop" });
  });
});
