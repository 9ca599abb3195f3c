import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadCustomModels, loadModelsFile } from "./load-models-file";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-models-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const local = {
  id: "local-8k",
  provider: "openai-compatible",
  api: "openai-chat",
  baseUrl: "http://127.0.0.1:8080/v1",
  contextWindow: 8192,
  maxTokens: 1024,
};

function write(name: string, content: unknown): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

describe("loadModelsFile", () => {
  it("loads the issue's example and remembers the file", () => {
    const file = write("models.json", { models: [local] });
    expect(loadModelsFile(file)).toEqual([{ ...local, source: file }]);
  });

  it("returns nothing for a missing file", () => {
    expect(loadModelsFile(path.join(dir, "none.json"))).toEqual([]);
  });

  it.each([
    ['{ "models": [ { "id": "x", } ] }', /models\.json: not valid JSON at line 1, column \d+/],
    [{ models: {} }, /expected an object with a "models" array/],
    [
      { models: [{ ...local, contextWindow: "8k" }] },
      /models\[0\]\.contextWindow: expected a positive integer, got "8k"/,
    ],
    [{ models: [{ ...local, api: "grpc" }] }, /models\[0\]\.api: expected one of openai-chat/],
    [{ models: [{ ...local, maxTokens: undefined }] }, /models\[0\]\.maxTokens is missing/],
    [{ models: [{ ...local, contextWindw: 5 }] }, /models\[0\]: unknown key "contextWindw"/],
    [{ models: [local, local] }, /models\[1\]: duplicate model id "local-8k"/],
    [{ models: [{ ...local, cost: { input: 1 } }] }, /models\[0\]\.cost: needs input and output/],
    [
      { models: [{ ...local, maxTokens: 9000 }] },
      /models\[0\]: "maxTokens" \(9000\) must not exceed contextWindow/,
    ],
  ])("rejects %j with a message naming the file and the problem", (content, pattern) => {
    const file = write("models.json", content);
    expect(() => loadModelsFile(file)).toThrow(
      expect.objectContaining({ code: "CLI_MODELS_FILE_INVALID", message: expect.stringMatching(pattern) }),
    );
    expect(() => loadModelsFile(file)).toThrow(file);
  });

  it("reports the line of a syntax error in a multi-line file", () => {
    const file = write("models.json", '{\n  "models": [\n    { "id": "a" oops }\n  ]\n}\n');
    expect(() => loadModelsFile(file)).toThrow(/line 3, column/);
  });
});

describe("loadCustomModels", () => {
  const home = () => path.join(dir, "home");
  const cwd = () => path.join(dir, "proj");

  it("adds the project's models to the user's in a trusted folder, and ignores them otherwise", () => {
    write("home/models.json", { models: [local] });
    write("proj/.arbor/models.json", { models: [{ ...local, id: "project-4k", contextWindow: 4096 }] });
    const trusted = loadCustomModels({ arborHome: home(), cwd: cwd(), includeProject: true });
    expect(trusted.map((model) => [model.id, model.contextWindow])).toEqual([
      ["local-8k", 8192],
      ["project-4k", 4096],
    ]);
    const untrusted = loadCustomModels({ arborHome: home(), cwd: cwd(), includeProject: false });
    expect(untrusted.map((model) => model.id)).toEqual(["local-8k"]);
  });

  it("never reads an untrusted project's file, not even to validate it", () => {
    write("proj/.arbor/models.json", "{ not json");
    expect(loadCustomModels({ arborHome: home(), cwd: cwd(), includeProject: false })).toEqual([]);
  });

  it("lets the user's own file redefine a built-in id", () => {
    write("home/models.json", { models: [{ ...local, id: "claude-sonnet-4-5", provider: "anthropic" }] });
    const models = loadCustomModels({ arborHome: home(), cwd: cwd(), includeProject: true });
    expect(models.map((model) => model.id)).toEqual(["claude-sonnet-4-5"]);
  });

  it.each([
    [
      "a built-in id",
      { ...local, id: "claude-sonnet-4-5", provider: "anthropic", api: "anthropic-messages" },
      /models\[0\]: "claude-sonnet-4-5" is a built-in model id; a project models file may not redefine it/,
    ],
    ["the user's own model", local, /models\[0\]: "local-8k" is already defined in .*home\/models\.json/],
    [
      "an apiKeyEnv that is not an API key",
      { ...local, id: "mine", apiKeyEnv: "GITHUB_TOKEN" },
      /models\[0\]\.apiKeyEnv: "GITHUB_TOKEN" is refused: .*"allowedApiKeyEnv": \["GITHUB_TOKEN"\]/,
    ],
  ])(
    "refuses a trusted project model that redefines %s, naming the file and the id",
    (_what, model, pattern) => {
      write("home/models.json", { models: [local] });
      const file = write("proj/.arbor/models.json", { models: [model] });
      const load = () => loadCustomModels({ arborHome: home(), cwd: cwd(), includeProject: true });
      expect(load).toThrow(
        expect.objectContaining({
          code: "CLI_PROJECT_MODEL_REFUSED",
          message: expect.stringMatching(pattern),
        }),
      );
      expect(load).toThrow(file);
    },
  );

  it("accepts a project apiKeyEnv ending in _API_KEY, or one the user allowed", () => {
    write("proj/.arbor/models.json", {
      models: [
        { ...local, id: "a", apiKeyEnv: "TEAM_API_KEY" },
        { ...local, id: "b", apiKeyEnv: "GITHUB_TOKEN" },
      ],
    });
    expect(() => loadCustomModels({ arborHome: home(), cwd: cwd(), includeProject: true })).toThrow(
      /models\[1\]\.apiKeyEnv: "GITHUB_TOKEN"/,
    );
    const models = loadCustomModels({
      arborHome: home(),
      cwd: cwd(),
      includeProject: true,
      allowedApiKeyEnv: ["GITHUB_TOKEN"],
    });
    expect(models.map((model) => model.apiKeyEnv)).toEqual(["TEAM_API_KEY", "GITHUB_TOKEN"]);
  });
});
