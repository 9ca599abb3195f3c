import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { listModels } from "@arbor/providers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

let dir: string;
let home: string;
let project: string;

beforeEach(() => {
  assertCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-models-"));
  home = path.join(dir, "home");
  project = path.join(dir, "project");
  fs.mkdirSync(path.join(project, ".arbor"), { recursive: true });
  fs.mkdirSync(home, { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const model = (id: string, extra: object = {}) => ({
  id,
  provider: "openai-compatible",
  api: "openai-chat",
  baseUrl: "http://127.0.0.1:9/v1",
  contextWindow: 8192,
  maxTokens: 1024,
  ...extra,
});

describe("arbor models", () => {
  it("lists built-in and declared models with window, max output, price and where each is defined", async () => {
    const homeFile = path.join(home, "models.json");
    const projectFile = path.join(project, ".arbor", "models.json");
    const haiku = { ...model("claude-haiku-4-5"), provider: "anthropic", api: "anthropic-messages" };
    const homeModels = [
      model("home-model", { cost: { input: 0.5, output: 1 } }),
      { ...haiku, contextWindow: 50_000 },
    ];
    fs.writeFileSync(homeFile, JSON.stringify({ models: homeModels }));
    fs.writeFileSync(projectFile, JSON.stringify({ models: [model("local-8k")] }));
    fs.writeFileSync(
      path.join(project, ".arbor", "settings.json"),
      JSON.stringify({ defaultModel: "local-8k" }),
    );
    const env = isolatedEnv({ HOME: dir, ARBOR_HOME: home });
    // An untrusted project's models file is ignored, with one warning line.
    const untrusted = await runCliProcess(["models"], { env, cwd: project });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toMatch(/^arbor: warning: ignored the project configuration of [^\n]*\n$/);
    expect(untrusted.stdout).not.toContain("local-8k");
    expect((await runCliProcess(["trust"], { env, cwd: project })).code).toBe(0);
    const run = await runCliProcess(["models"], { env, cwd: project });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\s+MODEL\s+WINDOW\s+MAX OUT\s+\$\/M IN\s+\$\/M OUT\s+DEFINED IN$/);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\* +openai-compatible\/local-8k +8,192 +1,024 +- +- +.*project\/\.arbor\/models\.json$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ +openai-compatible\/home-model +8,192 +1,024 +\$0\.50 +\$1\.00 +.*home\/models\.json$/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ +anthropic\/claude-sonnet-4-6 +1,000,000 +128,000 +\$3\.00 +\$15\.00 +built-in$/,
      ),
    );
    // The user's claude-haiku-4-5 replaces the built-in one.
    expect(lines.filter((line) => line.includes("anthropic/claude-haiku-4-5"))).toEqual([
      expect.stringMatching(/50,000 .*home\/models\.json$/),
    ]);
    expect(lines).toHaveLength(1 + listModels().length - 1 + 3);

    const json = await runCliProcess(["models", "--json"], { env, cwd: project });
    const parsed = JSON.parse(json.stdout) as { models: Array<Record<string, unknown>> };
    expect(parsed.models.filter((row) => row.default).map((row) => row.id)).toEqual(["local-8k"]);
    expect(parsed.models.find((row) => row.id === "home-model")).toEqual({
      provider: "openai-compatible",
      id: "home-model",
      name: "home-model",
      contextWindow: 8192,
      maxTokens: 1024,
      cost: { input: 0.5, output: 1, cacheRead: 0, cacheWrite: 0 },
      source: homeFile,
      default: false,
    });
  });

  it("names the invalid models file (exit 1) and rejects arguments (exit 2)", async () => {
    fs.writeFileSync(path.join(home, "models.json"), JSON.stringify({ models: [{ id: "x" }] }));
    const env = isolatedEnv({ HOME: dir, ARBOR_HOME: home });
    const bad = await runCliProcess(["models"], { env, cwd: project });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^arbor: .*home\/models\.json: models\[0\]/);
    const extra = await runCliProcess(["models", "gpt"], { env, cwd: dir });
    expect(extra.code).toBe(2);
    expect(extra.stderr).toBe('arbor: models: unexpected argument "gpt" (see arbor models --help)\n');
  });
});
