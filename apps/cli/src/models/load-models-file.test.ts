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
  it("merges home and project files, the project winning per id", () => {
    const home = path.join(dir, "home");
    const cwd = path.join(dir, "proj");
    write("home/models.json", { models: [local, { ...local, id: "other" }] });
    write("proj/.arbor/models.json", { models: [{ ...local, contextWindow: 4096 }] });
    const models = loadCustomModels({ arborHome: home, cwd });
    expect(models.map((model) => [model.id, model.contextWindow])).toEqual([
      ["local-8k", 4096],
      ["other", 8192],
    ]);
  });
});
