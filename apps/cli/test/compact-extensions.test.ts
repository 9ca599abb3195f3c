import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";
import { readLastJsonlLine } from "./helpers/session-files";

const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
let server: TestLlmServer;
let dir: string;
let home: string;

/**
 * An extension written for these tests: records that it was loaded, cancels when the instructions
 * say "skip", otherwise writes its own summary (first kept entry: the preparation's).
 */
const POLICY_EXTENSION = `
import fs from "node:fs";
export default {
  apiVersion: 1,
  name: "skip-or-summarize",
  setup(api) {
    fs.appendFileSync(process.env.POLICY_MARKER, "loaded\\n");
    api.on("session_before_compact", (event) => {
      fs.appendFileSync(process.env.POLICY_MARKER, "reason=" + event.reason + " instructions=" + event.customInstructions + "\\n");
      if ((event.customInstructions ?? "").includes("skip")) return { cancel: true };
      return {
        compaction: {
          summary: "POLICY SUMMARY of " + event.preparation.messagesToSummarize.length + " messages",
          firstKeptEntryId: event.preparation.firstKeptEntryId,
          tokensBefore: event.preparation.tokensBefore,
          details: { by: "skip-or-summarize" },
        },
      };
    });
  },
};
`;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-compact-ext-"));
  home = path.join(dir, "home");
  fs.mkdirSync(home, { recursive: true });
  const extension = path.join(dir, "skip-or-summarize.mjs");
  fs.writeFileSync(extension, POLICY_EXTENSION);
  fs.writeFileSync(path.join(home, "settings.json"), JSON.stringify({ extensions: [extension] }));
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

function envWith(marker: string, extra: Record<string, string> = {}) {
  return isolatedEnv({ HOME: dir, ARBOR_HOME: home, POLICY_MARKER: marker, ...extra });
}

describe("arbor compact runs the user's extensions", () => {
  it("lets session_before_compact write the summary (fromHook: true) and says so", async () => {
    const file = copyExample("custom.jsonl");
    const marker = path.join(dir, "custom.marker");
    const run = await runCliProcess(["compact", file, "--keep-recent-tokens", "4000"], {
      env: envWith(marker),
      cwd: dir,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("with an extension's summary (session_before_compact)");
    const entry = readLastJsonlLine(file);
    expect(entry.type).toBe("compaction");
    expect(entry.fromHook).toBe(true);
    expect(entry.summary).toMatch(/^POLICY SUMMARY of \d+ messages$/);
    expect(entry.details).toEqual({ by: "skip-or-summarize" });
    expect(fs.readFileSync(marker, "utf8")).toBe("loaded\nreason=manual instructions=undefined\n");
    expect(server.requests).toHaveLength(0);
  });

  it("stops with exit code 1 and writes nothing when an extension cancels", async () => {
    const file = copyExample("cancel.jsonl");
    const before = fs.readFileSync(file);
    const marker = path.join(dir, "cancel.marker");
    const run = await runCliProcess(
      ["compact", file, "--instructions", "skip this one", "--keep-recent-tokens", "4000"],
      {
        env: envWith(marker, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.anthropicBaseUrl }),
        cwd: dir,
      },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("cancelled by extension skip-or-summarize");
    expect(run.stderr).toContain("nothing was written");
    expect(fs.readFileSync(file)).toEqual(before);
    expect(fs.readFileSync(marker, "utf8")).toContain("instructions=skip this one");
    expect(server.requests).toHaveLength(0);
  });

  it("with --no-extensions loads none and compacts plainly with the model", async () => {
    const file = copyExample("plain.jsonl");
    const marker = path.join(dir, "plain.marker");
    server.enqueue(textReply("## Goal\nPlain model summary."), textReply("## Original Request\nprefix."));
    const run = await runCliProcess(
      ["compact", file, "--no-extensions", "--instructions", "skip this", "--keep-recent-tokens", "4000"],
      {
        env: envWith(marker, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.anthropicBaseUrl }),
        cwd: dir,
      },
    );
    expect(run.code).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    const entry = readLastJsonlLine(file);
    expect(entry.type).toBe("compaction");
    expect(entry.fromHook).toBe(false);
    expect(entry.summary).toContain("Plain model summary.");
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it("summarizes with the model through the runtime when the extension has no opinion", async () => {
    const file = copyExample("no-opinion.jsonl");
    const quiet = path.join(dir, "quiet.mjs");
    fs.writeFileSync(
      quiet,
      `export default { apiVersion: 1, name: "quiet", setup(api) { api.on("session_before_compact", () => undefined); } };`,
    );
    const quietHome = path.join(dir, "quiet-home");
    fs.mkdirSync(quietHome, { recursive: true });
    fs.writeFileSync(path.join(quietHome, "settings.json"), JSON.stringify({ extensions: [quiet] }));
    server.enqueue(textReply("## Goal\nRuntime model summary."), textReply("## Original Request\nprefix."));
    const run = await runCliProcess(["compact", file, "--keep-recent-tokens", "4000"], {
      env: isolatedEnv({
        HOME: dir,
        ARBOR_HOME: quietHome,
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      }),
      cwd: dir,
    });
    // The Anthropic SDK itself may print a deprecation notice for the session's model.
    expect(run.stderr).not.toContain("arbor:");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Compacted .* with anthropic\//);
    const entry = readLastJsonlLine(file);
    expect(entry.fromHook).toBe(false);
    expect(entry.summary).toContain("Runtime model summary.");
  });

  it("a handler that throws is reported once, without a repeated prefix, and the default summary is used", async () => {
    const file = copyExample("thrower.jsonl");
    const thrower = path.join(dir, "thrower.mjs");
    fs.writeFileSync(
      thrower,
      `export default { apiVersion: 1, name: "thrower", setup(api) { api.on("session_before_compact", (event, ctx) => ctx.ui.notify("hi")); } };`,
    );
    const throwerHome = path.join(dir, "thrower-home");
    fs.mkdirSync(throwerHome, { recursive: true });
    fs.writeFileSync(path.join(throwerHome, "settings.json"), JSON.stringify({ extensions: [thrower] }));
    const run = await runCliProcess(["compact", file, "--keep-recent-tokens", "4000"], {
      env: isolatedEnv({ HOME: dir, ARBOR_HOME: throwerHome }),
      cwd: dir,
    });
    expect(run.code).toBe(0);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^arbor: Extension "thrower" failed in hook "session_before_compact": .+/);
    expect(lines[0]?.match(/thrower/g)).toHaveLength(1);
    expect(readLastJsonlLine(file).fromHook).toBe(false);
  });

  it("a summarizer on another provider, declared in models.json, through api.models; notices on stderr", async () => {
    const file = copyExample("models.jsonl");
    const cheapHome = path.join(dir, "cheap-home");
    fs.mkdirSync(cheapHome, { recursive: true });
    const extension = path.join(dir, "cheap.mjs");
    fs.writeFileSync(
      extension,
      `export default {
        apiVersion: 1,
        name: "cheap",
        setup(api) {
          api.on("session_before_compact", async (event, context) => {
            const model = api.models.find("local", "cheap-summarizer");
            const provider = await api.models.providerFor(model);
            const result = await api.compaction.compact(event.preparation, { provider, model, signal: context.signal });
            api.ui.notify("summarized with " + model.provider + "/" + model.id + " in " + api.ui.mode + " mode (hasUI " + api.ui.hasUI + ")");
            return { compaction: { ...result, details: { by: model.id } } };
          });
        },
      };`,
    );
    fs.writeFileSync(path.join(cheapHome, "settings.json"), JSON.stringify({ extensions: [extension] }));
    fs.writeFileSync(
      path.join(cheapHome, "models.json"),
      JSON.stringify({
        models: [
          {
            id: "cheap-summarizer",
            provider: "local",
            api: "openai-chat",
            baseUrl: server.openaiBaseUrl,
            apiKeyEnv: "LOCAL_API_KEY",
            contextWindow: 32_000,
            maxTokens: 2000,
          },
        ],
      }),
    );
    server.enqueue(textReply("## Goal\nCHEAP SUMMARY"), textReply("## Original Request\nprefix"));
    const run = await runCliProcess(["compact", file, "--keep-recent-tokens", "4000"], {
      // The session's own model (Anthropic) has no key: only the declared model's key is set.
      env: isolatedEnv({ HOME: dir, ARBOR_HOME: cheapHome, LOCAL_API_KEY: "test-key" }),
      cwd: dir,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      "arbor: cheap: summarized with local/cheap-summarizer in command mode (hasUI false)\n",
    );
    const entry = readLastJsonlLine(file);
    expect(entry.fromHook).toBe(true);
    expect(entry.summary).toContain("CHEAP SUMMARY");
    expect(entry.details).toEqual({ by: "cheap-summarizer" });
    expect(server.requests.length).toBeGreaterThan(0);
    for (const request of server.requests) {
      expect(request.path).toContain("/chat/completions");
      expect((request.body as { model?: string }).model).toBe("cheap-summarizer");
    }
  });

  it("the seeds' recipes, loaded as .ts from the user's settings: your own model, then serialize it yourself", async () => {
    const recipeHome = path.join(dir, "recipe-home");
    fs.mkdirSync(recipeHome, { recursive: true });
    const models = {
      models: [
        {
          id: "own-summarizer",
          provider: "local",
          api: "openai-chat",
          baseUrl: server.openaiBaseUrl,
          apiKeyEnv: "LOCAL_API_KEY",
          contextWindow: 32_000,
          maxTokens: 2000,
        },
      ],
    };
    fs.writeFileSync(path.join(recipeHome, "models.json"), JSON.stringify(models));
    const env = isolatedEnv({ HOME: dir, ARBOR_HOME: recipeHome, LOCAL_API_KEY: "test-key" });
    const recipe = (name: string) => path.join(REPO_ROOT, "examples/extensions", name);

    fs.writeFileSync(
      path.join(recipeHome, "settings.json"),
      JSON.stringify({
        extensions: [recipe("summarize-with-your-own-model.ts")],
        ownModelCompaction: { model: "local/own-summarizer" },
      }),
    );
    const skipped = copyExample("recipe-skip.jsonl");
    const before = fs.readFileSync(skipped);
    const skip = await runCliProcess(
      ["compact", skipped, "--instructions", "skip", "--keep-recent-tokens", "4000"],
      {
        env,
        cwd: dir,
      },
    );
    expect(skip.code).toBe(1);
    expect(skip.stderr).toContain("compaction skipped, as the instructions asked");
    expect(fs.readFileSync(skipped)).toEqual(before);
    const own = copyExample("recipe-own.jsonl");
    server.enqueue(textReply("## Goal\nOWN MODEL SUMMARY"), textReply("## Original Request\nprefix"));
    const ownRun = await runCliProcess(["compact", own, "--keep-recent-tokens", "4000"], { env, cwd: dir });
    expect(ownRun.code).toBe(0);
    expect(ownRun.stderr).toBe(
      "arbor: summarize-with-your-own-model: summarized with local/own-summarizer\n",
    );
    expect(readLastJsonlLine(own)).toMatchObject({
      fromHook: true,
      details: { summarizedBy: "local/own-summarizer" },
    });
    expect(readLastJsonlLine(own).summary).toContain("OWN MODEL SUMMARY");

    fs.writeFileSync(
      path.join(recipeHome, "settings.json"),
      JSON.stringify({
        extensions: [recipe("serialize-it-yourself.ts")],
        serializeItYourself: { model: "local/own-summarizer" },
      }),
    );
    server.reset();
    const serialized = copyExample("recipe-serialize.jsonl");
    server.enqueue(textReply("HANDOVER NOTE"));
    const run = await runCliProcess(["compact", serialized, "--keep-recent-tokens", "4000"], {
      env,
      cwd: dir,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const entry = readLastJsonlLine(serialized);
    expect(entry.fromHook).toBe(true);
    expect(entry.summary.startsWith("HANDOVER NOTE")).toBe(true);
    expect(entry.summary).toContain("<modified-files>");
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests[0]?.body)).toContain("[User]:");
  });

  it("ignores an untrusted project's extensions with a warning, and runs them with --trust-project", async () => {
    const project = path.join(dir, "project");
    fs.mkdirSync(path.join(project, ".arbor"), { recursive: true });
    const marker = path.join(dir, "project.marker");
    const extension = path.join(project, ".arbor/project-policy.mjs");
    fs.writeFileSync(
      extension,
      POLICY_EXTENSION.replace("skip-or-summarize", "project-policy").replaceAll(
        "process.env.POLICY_MARKER",
        JSON.stringify(marker),
      ),
    );
    fs.writeFileSync(
      path.join(project, ".arbor/settings.json"),
      JSON.stringify({ extensions: ["project-policy.mjs"] }),
    );
    const emptyHome = path.join(dir, "empty-home");
    const env = isolatedEnv({ HOME: dir, ARBOR_HOME: emptyHome });
    const untrusted = copyExample("untrusted.jsonl");
    const ignored = await runCliProcess(["compact", untrusted, "--keep-recent-tokens", "4000"], {
      env,
      cwd: project,
    });
    expect(ignored.code).toBe(0);
    expect(ignored.stderr).toContain("ignored the project configuration");
    expect(ignored.stderr).toContain("--trust-project");
    expect(fs.existsSync(marker)).toBe(false);
    expect(readLastJsonlLine(untrusted).fromHook).toBe(false);

    const trusted = copyExample("trusted.jsonl");
    const run = await runCliProcess(["compact", trusted, "--trust-project", "--keep-recent-tokens", "4000"], {
      env,
      cwd: project,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(readLastJsonlLine(trusted).fromHook).toBe(true);
    expect(fs.readFileSync(marker, "utf8")).toContain("loaded");

    const offline = copyExample("offline.jsonl");
    fs.rmSync(marker);
    const plain = await runCliProcess(
      ["compact", offline, "--offline", "--trust-project", "--keep-recent-tokens", "4000"],
      { env, cwd: project },
    );
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("with the offline summarizer (--offline)");
    expect(fs.existsSync(marker)).toBe(false);
    expect(readLastJsonlLine(offline).fromHook).toBe(false);
  });
});
