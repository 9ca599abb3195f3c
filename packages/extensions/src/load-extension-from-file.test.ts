import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExtensionError } from "./extension-error";
import { loadExtensionFromFile } from "./load-extension-from-file";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "arbor-extensions-"));
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

async function failureOf(file: string): Promise<ExtensionError> {
  const error = await loadExtensionFromFile(file).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ExtensionError.isInstance(error)) throw new Error(`expected an ExtensionError, got ${String(error)}`);
  return error;
}

describe("loadExtensionFromFile", { timeout: 30_000 }, () => {
  it("loads an ES module .mjs and .js file", async () => {
    const source = 'export default { apiVersion: 1, name: "NAME", setup(api) { api.loaded = "NAME"; } };\n';
    for (const [name, extensionName] of [
      ["plain.mjs", "mjs-ext"],
      ["plain.js", "js-ext"],
    ] as const) {
      const file = await write(name, source.replaceAll("NAME", extensionName));
      const loaded = await loadExtensionFromFile(file);
      expect(loaded.file).toBe(file);
      expect(loaded.extension.name).toBe(extensionName);
      const api: Record<string, unknown> = {};
      await loaded.extension.setup(api);
      expect(api.loaded).toBe(extensionName);
    }
  });

  it("loads a CommonJS .cjs file", async () => {
    const file = await write(
      "common.cjs",
      'module.exports = { apiVersion: 1, name: "cjs-ext", setup() {} };\n',
    );
    expect((await loadExtensionFromFile(file)).extension.name).toBe("cjs-ext");
  });

  it("loads a TypeScript file with types and a relative TypeScript import, through jiti", async () => {
    await write("helper.ts", "export const suffix: string = '-from-helper';\n");
    const file = await write(
      "typed.ts",
      [
        'import { suffix } from "./helper.ts";',
        "interface Api { names: string[] }",
        "const name: string = 'ts-ext' + suffix;",
        "export default { apiVersion: 1 as const, name, setup(api: Api): void { api.names.push(name); } };",
        "",
      ].join("\n"),
    );
    const loaded = await loadExtensionFromFile(file);
    expect(loaded.extension.name).toBe("ts-ext-from-helper");
    const api = { names: [] as string[] };
    await loaded.extension.setup(api);
    expect(api.names).toEqual(["ts-ext-from-helper"]);
  });

  it("resolves a relative path against the working directory", async () => {
    const file = await write("relative.mjs", 'export default { apiVersion: 1, name: "rel", setup() {} };\n');
    const loaded = await loadExtensionFromFile(path.relative(process.cwd(), file));
    expect(loaded.file).toBe(file);
  });

  it("fails with EXTENSION_LOAD_FAILED for a missing file, a directory or an unsupported extension", async () => {
    const missing = path.join(dir, "missing.js");
    const notFound = await failureOf(missing);
    expect([notFound.code, notFound.file, notFound.message]).toEqual([
      "EXTENSION_LOAD_FAILED",
      missing,
      `Extension file ${missing}: not found`,
    ]);
    const folder = path.join(dir, "folder.js");
    await import("node:fs/promises").then((fs) => fs.mkdir(folder));
    expect((await failureOf(folder)).message).toContain("not a regular file");
    const json = await write("data.json", "{}");
    expect((await failureOf(json)).message).toContain('unsupported file extension ".json"');
  });

  it("fails with EXTENSION_LOAD_FAILED when the module throws or does not parse", async () => {
    const throwing = await write("throws.mjs", 'throw new Error("top-level failure");\n');
    const thrown = await failureOf(throwing);
    expect(thrown.code).toBe("EXTENSION_LOAD_FAILED");
    expect(thrown.message).toContain(throwing);
    expect(thrown.message).toContain("top-level failure");
    const broken = await write("broken.ts", "export default {{ not typescript\n");
    const parse = await failureOf(broken);
    expect([parse.code, parse.file]).toEqual(["EXTENSION_LOAD_FAILED", broken]);
  });

  it("fails with EXTENSION_INVALID without a default export or with a bad definition", async () => {
    const named = await write("named.mjs", "export const extension = {};\n");
    const noDefault = await failureOf(named);
    expect([noDefault.code, noDefault.message]).toEqual([
      "EXTENSION_INVALID",
      `Extension file ${named}: no default export; export default defineExtension({ apiVersion, name, setup })`,
    ]);
    const noSetup = await write("no-setup.ts", 'export default { apiVersion: 1, name: "lazy" };\n');
    const invalid = await failureOf(noSetup);
    expect([invalid.code, invalid.extensionName]).toEqual(["EXTENSION_INVALID", "lazy"]);
  });

  it("accepts a pi-style factory (a default-exported function) as a style: pi definition named after the file", async () => {
    const file = await write("pi-factory.mjs", "export default function (pi) { pi.called = true; }\n");
    const loaded = await loadExtensionFromFile(file);
    expect(loaded.extension).toMatchObject({ apiVersion: 1, name: "pi-factory", style: "pi" });
    const api: { called?: boolean } = {};
    await loaded.extension.setup(api);
    expect(api.called).toBe(true);
  });

  it("fails with EXTENSION_API_VERSION naming the file", async () => {
    const file = await write("future.mjs", 'export default { apiVersion: 7, name: "future", setup() {} };\n');
    const error = await failureOf(file);
    expect(error.code).toBe("EXTENSION_API_VERSION");
    expect(error.message).toBe(
      `Extension file ${file}: apiVersion is 7, but this version of @arbor/extensions supports apiVersion 1`,
    );
  });
});

describe("loadExtensionFromFile: an import that never finishes", { timeout: 30_000 }, () => {
  it("fails with EXTENSION_TIMEOUT naming the file once the timeout elapses", async () => {
    const file = await write(
      "never.mjs",
      'await new Promise(() => {});\nexport default { apiVersion: 1, name: "never", setup() {} };\n',
    );
    const error = await loadExtensionFromFile(file, { timeoutMs: 200 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ExtensionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "EXTENSION_TIMEOUT", file, timeoutMs: 200 });
    expect((error as Error).message).toBe(
      `Extension file ${file}: import did not finish within 200 ms (a top-level await that never settles?)`,
    );
  });

  it("waits for a slow top-level await that does finish within the timeout", async () => {
    const file = await write(
      "slow.mjs",
      'await new Promise((resolve) => setTimeout(resolve, 50));\nexport default { apiVersion: 1, name: "slow", setup() {} };\n',
    );
    expect((await loadExtensionFromFile(file, { timeoutMs: 10_000 })).extension.name).toBe("slow");
  });

  it("rejects a timeout that is not a positive number", async () => {
    await expect(loadExtensionFromFile("x.mjs", { timeoutMs: 0 })).rejects.toThrow(RangeError);
  });
});
