/**
 * `arbor replay` end to end: the built CLI replays the example session (and a gzipped copy) under
 * each policy; the file is never changed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
let dir: string;
let server: TestLlmServer;

beforeAll(async () => {
  assertCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-replay-"));
  server = await startWireServer();
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await server.close();
});

async function replay(...args: string[]) {
  const run = await runCliProcess(["replay", ...args], { env: isolatedEnv({ ARBOR_HOME: dir }) });
  return run;
}

describe("arbor replay", { timeout: 180_000 }, () => {
  it("--json: one object with the figures; the example fits a 200k window: no summary, no edit", async () => {
    const before = fs.readFileSync(EXAMPLE);
    const run = await replay(EXAMPLE, "--policy", "pi", "--json");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      policy: "pi",
      model: "claude-sonnet-4-5",
      overflows: 0,
      loops: 0,
      summaryCalls: 0,
    });
    for (const key of [
      "requests",
      "inputTokens",
      "cacheReadTokens",
      "cacheWriteTokens",
      "outputTokens",
      "costUsd",
      "peakContextTokens",
    ]) {
      expect(typeof report[key]).toBe("number");
    }
    // One request per recorded assistant answer; the cache serves most of the input.
    expect(report.requests).toBeGreaterThan(10);
    expect(report.cacheReadTokens).toBeGreaterThan(report.cacheWriteTokens);
    expect(report.retention).toBe(1);
    expect(fs.readFileSync(EXAMPLE)).toEqual(before);
  });

  it("a small window forces summaries under pi; mask hides outputs instead; a gzipped file replays the same", async () => {
    const gz = path.join(dir, "example.jsonl.gz");
    fs.writeFileSync(gz, gzipSync(fs.readFileSync(EXAMPLE)));
    const pi = JSON.parse((await replay(gz, "--policy", "pi", "--window", "6000", "--json")).stdout);
    expect(pi.summaryCalls).toBeGreaterThan(0);
    expect(pi.overflows).toBe(0);
    // The curve counts the summaries where they happened: it ends at the total, and somewhere it
    // rises by more than the request of that point cost (a summary was paid before it).
    const curve = pi.series.map((point: { cumulativeCostUsd: number }) => point.cumulativeCostUsd);
    expect(curve).toHaveLength(pi.requests);
    expect(curve.at(-1)).toBeCloseTo(pi.costUsd, 9);
    expect(pi.summaryCostUsd).toBeGreaterThan(0);
    const requestsOnly = pi.costUsd - pi.summaryCostUsd;
    expect(curve.some((value: number) => value > requestsOnly + 1e-12)).toBe(true);
    const plain = JSON.parse((await replay(EXAMPLE, "--policy", "pi", "--window", "6000", "--json")).stdout);
    expect(plain.costUsd).toBe(pi.costUsd);
    const mask = JSON.parse(
      (await replay(EXAMPLE, "--policy", "mask", "--window", "6000", "--model", "gpt-4.1", "--json")).stdout,
    );
    expect(mask).toMatchObject({
      policy: "mask",
      model: "gpt-4.1",
      contextWindow: 6000,
      cacheWriteTokens: 0,
    });
    expect(mask.peakContextTokens).toBeLessThanOrEqual(6000);
  });

  it("the text form is a table; bad flags are usage errors", async () => {
    const run = await replay(EXAMPLE, "--policy", "cache-aware");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^policy\s+cache-aware$/m);
    expect(run.stdout).toMatch(/^cost \(USD\)\s+\d+\.\d{4}$/m);
    expect(run.stdout).toMatch(/^retention\s+1\.000 \(\d+ of \d+ facts\)$/m);
    const bad = await replay(EXAMPLE, "--policy", "summarize-everything");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--policy expects one of pi, mask, cache-aware");
    expect((await replay(EXAMPLE)).stderr).toContain("--policy is required");
    expect((await replay(EXAMPLE, "--policy", "pi", "--leaf", "nope")).code).toBe(1);
  });

  it("cache-aware --summary-model with the session's own model: each summary is the conversation plus one instruction, its cache reads priced", async () => {
    // A server of its own: the replies it does not use must not reach the other tests.
    const own = await startWireServer();
    for (let index = 0; index < 10; index++)
      own.enqueue(
        textReply(`## Goal\nshared summary ${index}`, {
          usage: { input: 10, cacheRead: 3000, cacheWrite: 200, output: 100 },
        }),
      );
    const env = isolatedEnv({
      ARBOR_HOME: dir,
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: own.anthropicBaseUrl,
    });
    const args = ["replay", EXAMPLE, "--policy", "cache-aware", "--window", "8000", "--json"];
    const run = await runCliProcess([...args, "--summary-model", "claude-sonnet-4-5"], { env });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.summarizer).toBe("anthropic/claude-sonnet-4-5");
    const sent = own.requests.map((request) => request.body as Record<string, unknown>);
    expect(sent.length).toBe(report.summaryCalls);
    const shared = sent.filter((body) =>
      JSON.stringify((body.messages as unknown[]).at(-1)).includes("comes from the context manager"),
    );
    expect(shared.length).toBeGreaterThan(0);
    for (const body of shared) {
      // The replayed session's own tools and conversation, not a summarizer's system prompt.
      expect(JSON.stringify(body.tools)).toContain('"name":"read"');
      expect(JSON.stringify(body.system ?? "")).not.toContain("checkpoint summaries");
      expect((body.messages as unknown[]).length).toBeGreaterThan(2);
      // Tools, the anchor where the last request's cache ended, and the instruction carry breakpoints.
      expect(JSON.stringify(body).match(/cache_control/g)?.length).toBe(3);
    }
    // Priced from the usage the provider reports: 10 in, 3000 read, 200 written, 100 out, Sonnet's prices.
    expect(report.summaryInputTokens).toBe(3210 * sent.length);
    expect(report.summaryCostUsd).toBeCloseTo(
      (sent.length * (10 * 3 + 3000 * 0.3 + 200 * 3.75 + 100 * 15)) / 1e6,
      10,
    );
    // The offline run of the same replay prices its summaries by the cache model instead (no request).
    const offline = JSON.parse((await runCliProcess(args, { env })).stdout);
    expect(offline.cacheSharingSummaries).toBeGreaterThan(0);
    expect(own.requests.length).toBe(sent.length);
    await own.close();
  });

  it("--summary-model: the summaries are requests through the SDK to that model, priced from the usage it reports", async () => {
    for (let index = 0; index < 10; index++)
      server.enqueue(textReply(`## Goal\nmodel summary ${index}`, { usage: { input: 1000, output: 100 } }));
    const env = isolatedEnv({
      ARBOR_HOME: dir,
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    });
    const args = ["replay", EXAMPLE, "--policy", "pi", "--window", "6000", "--json"];
    const run = await runCliProcess([...args, "--summary-model", "claude-haiku-4-5"], { env });
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout);
    expect(report.summarizer).toBe("anthropic/claude-haiku-4-5");
    expect(report.summaryCalls).toBeGreaterThan(0);
    // One request per summary, two when the cut splits a turn (the turn prefix is summarized apart).
    const requests = server.requests.length;
    expect(requests).toBeGreaterThanOrEqual(report.summaryCalls);
    expect(requests).toBeLessThanOrEqual(2 * report.summaryCalls);
    expect((server.requests[0]?.body as { model?: string } | undefined)?.model).toBe("claude-haiku-4-5");
    // 1000 in and 100 out per request, at Haiku's $1 / $5 per million.
    expect(report.summaryInputTokens).toBe(1000 * requests);
    expect(report.summaryOutputTokens).toBe(100 * requests);
    expect(report.summaryCostUsd).toBeCloseTo((requests * (1000 * 1 + 100 * 5)) / 1e6, 10);
    // Without the flag the offline summarizer writes them (no request) and says so.
    const offline = JSON.parse((await runCliProcess(args, { env })).stdout);
    expect(offline.summarizer).toBe("offline");
    expect(server.requests).toHaveLength(requests);
    // Without a key: a clear error, nothing replayed.
    const noKey = await runCliProcess([...args, "--summary-model", "claude-haiku-4-5"], {
      env: isolatedEnv({ ARBOR_HOME: dir }),
    });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("needs ANTHROPIC_API_KEY");
  });
});
