import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSettings, readSettingsFile, resolveArborHome } from "./load-settings";
import { SettingsError } from "./settings-error";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-settings-"));
  dirs.push(dir);
  return dir;
}
function write(file: string, content: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("loadSettings", () => {
  it("merges global and project settings with the project winning, deeply", () => {
    const home = tempDir();
    const project = tempDir();
    write(path.join(home, "settings.json"), {
      compaction: { reserveTokens: 1000, modelOverrides: { "anthropic/claude": { keepRecentTokens: 5 } } },
      extensions: ["a.js"],
    });
    write(path.join(project, ".arbor", "settings.json"), {
      compaction: { reserveTokens: 2000 },
      extensions: ["b.js"],
    });
    const loaded = loadSettings({ cwd: project, arborHome: home });
    expect(loaded.settings).toEqual({
      compaction: { reserveTokens: 2000, modelOverrides: { "anthropic/claude": { keepRecentTokens: 5 } } },
      extensions: ["b.js"],
    });
    expect(loaded.files).toHaveLength(2);
  });

  it("returns empty settings when no file exists", () => {
    expect(loadSettings({ cwd: tempDir(), arborHome: tempDir() })).toEqual({
      settings: {},
      files: [],
      unknownKeys: [],
    });
  });

  it("names the file and the key of an invalid value", () => {
    const home = tempDir();
    const file = path.join(home, "settings.json");
    write(file, { compaction: { reserveTokens: -5 } });
    let caught: unknown;
    try {
      readSettingsFile(file);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SettingsError);
    const error = caught as SettingsError;
    expect(error.code).toBe("SETTINGS_INVALID");
    expect(error.keyPath).toBe("compaction.reserveTokens");
    expect(error.message).toContain(file);
    expect(error.message).toContain("compaction.reserveTokens");
    expect(error.message).toContain("-5");
  });

  it("rejects an unknown key inside a known section and a per-model override of the wrong type", () => {
    const home = tempDir();
    const file = path.join(home, "settings.json");
    write(file, { compaction: { reserveTokenz: 5 } });
    expect(() => readSettingsFile(file)).toThrow(/reserveTokenz/);
    write(file, { compaction: { modelOverrides: { "openai/gpt": 12 } } });
    expect(() => readSettingsFile(file)).toThrow(/compaction\.modelOverrides\.openai\/gpt/);
  });

  it("reports malformed JSON with SETTINGS_PARSE_FAILED and keeps the file untouched", () => {
    const home = tempDir();
    const file = path.join(home, "settings.json");
    write(file, "{ not json");
    expect(() => loadSettings({ cwd: tempDir(), arborHome: home })).toThrow(
      expect.objectContaining({ code: "SETTINGS_PARSE_FAILED", filePath: file }),
    );
    expect(fs.readFileSync(file, "utf8")).toBe("{ not json");
  });

  it("reads the tools section and rejects a relative allowed folder or an unknown tools key", () => {
    const home = tempDir();
    const file = path.join(home, "settings.json");
    write(file, { tools: { bashTimeoutSeconds: 0, allowedFolders: ["/srv/data", "~/notes", "~"] } });
    expect(readSettingsFile(file)?.tools).toEqual({
      bashTimeoutSeconds: 0,
      allowedFolders: ["/srv/data", "~/notes", "~"],
    });
    write(file, { tools: { allowedFolders: ["../elsewhere"] } });
    expect(() => readSettingsFile(file)).toThrow(
      /tools\.allowedFolders\.0: "\.\.\/elsewhere": must be an absolute path or start with ~\//,
    );
    write(file, { tools: { bashTimeoutSeconds: -1 } });
    expect(() => readSettingsFile(file)).toThrow(/tools\.bashTimeoutSeconds/);
    write(file, { tools: { timeout: 5 } });
    expect(() => readSettingsFile(file)).toThrow(/unknown key\(s\) timeout/);
  });

  it("lists unknown top-level keys per file and keeps them in the settings", () => {
    const home = tempDir();
    const project = tempDir();
    write(path.join(home, "settings.json"), { compation: { reserveTokens: 5 }, maskToolOutputs: {} });
    write(path.join(project, ".arbor", "settings.json"), { defaultModel: "m", extension: ["x.js"] });
    const loaded = loadSettings({ cwd: project, arborHome: home });
    expect(loaded.unknownKeys).toEqual([
      { filePath: path.join(home, "settings.json"), key: "compation" },
      { filePath: path.join(home, "settings.json"), key: "maskToolOutputs" },
      { filePath: path.join(project, ".arbor", "settings.json"), key: "extension" },
    ]);
    expect(loaded.settings).toMatchObject({ compation: { reserveTokens: 5 }, maskToolOutputs: {} });
    expect(loadSettings({ cwd: project, arborHome: home, ignoreProject: true }).unknownKeys).toHaveLength(2);
  });

  it("accepts compaction.maxConsecutiveAutoCompactions (an integer >= 1) and reports retry / images as unknown", () => {
    const home = tempDir();
    write(path.join(home, "settings.json"), {
      compaction: { maxConsecutiveAutoCompactions: 2 },
      retry: { maxRetries: 1 },
      images: { blockImages: true },
    });
    const loaded = loadSettings({ cwd: tempDir(), arborHome: home });
    expect(loaded.settings.compaction?.maxConsecutiveAutoCompactions).toBe(2);
    expect(loaded.unknownKeys.map((unknown) => unknown.key)).toEqual(["retry", "images"]);
    write(path.join(home, "settings.json"), { compaction: { maxConsecutiveAutoCompactions: 0 } });
    expect(() => loadSettings({ cwd: tempDir(), arborHome: home })).toThrow(/maxConsecutiveAutoCompactions/);
  });

  it("knows every documented top-level key", () => {
    const home = tempDir();
    write(path.join(home, "settings.json"), {
      compaction: {},
      branchSummary: {},
      defaultProvider: "p",
      defaultModel: "m",
      defaultThinkingLevel: "low",
      extensions: [],
      extensionTimeoutMs: 5,
      allowedApiKeyEnv: ["GITHUB_TOKEN"],
      tools: {},
    });
    expect(loadSettings({ cwd: tempDir(), arborHome: home }).unknownKeys).toEqual([]);
    write(path.join(home, "settings.json"), { allowedApiKeyEnv: ["NOT-A-NAME"] });
    expect(() => loadSettings({ cwd: tempDir(), arborHome: home })).toThrow(/allowedApiKeyEnv\.0/);
  });

  it("resolves ARBOR_HOME", () => {
    expect(resolveArborHome({ ARBOR_HOME: "/tmp/x" })).toBe("/tmp/x");
    expect(resolveArborHome({})).toBe(path.join(os.homedir(), ".arbor"));
  });
});
