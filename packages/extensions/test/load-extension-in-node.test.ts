/**
 * Loads extension files in a plain Node process through the built package (dist), outside vitest's
 * module runner (which would transpile TypeScript itself and hide whether jiti does the work).
 * Needs `pnpm --filter @arbor/extensions build` first; `pnpm test` builds before testing.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";

const distEntry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
let dir: string;

beforeAll(async () => {
  if (!existsSync(distEntry))
    throw new Error(`${distEntry} is missing: run pnpm --filter @arbor/extensions build`);
  dir = await mkdtemp(path.join(tmpdir(), "arbor-extensions-node-"));
  await writeFile(path.join(dir, "helper.ts"), "export const suffix: string = '+helper';\n");
  await writeFile(
    path.join(dir, "typed.ts"),
    [
      'import { suffix } from "./helper.ts";',
      "type Api = { on(name: string, handler: (event: { n: number }) => void): void };",
      "export default {",
      "  apiVersion: 1 as const,",
      "  name: 'typed' + suffix,",
      "  setup(api: Api): void { api.on('tick', (event) => { (globalThis as any).seen = event.n; }); },",
      "};",
      "",
    ].join("\n"),
  );
  await writeFile(
    path.join(dir, "plain.mjs"),
    'export default { apiVersion: 1, name: "plain", setup() {} };\n',
  );
  await writeFile(
    path.join(dir, "bad-version.ts"),
    'export default { apiVersion: 2, name: "v2", setup() {} };\n',
  );
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("loads .ts (through jiti) and .mjs extensions in plain Node and installs one on a bus", async () => {
  const script = `
    const { loadExtensionFromFile, installExtension, createHookBus } = await import(${JSON.stringify(pathToFileURL(distEntry).href)});
    const dir = ${JSON.stringify(dir)};
    const typed = await loadExtensionFromFile(dir + "/typed.ts");
    const plain = await loadExtensionFromFile(dir + "/plain.mjs");
    const bus = createHookBus();
    await installExtension(bus, typed.extension, { file: typed.file });
    await bus.emit("tick", { n: 42 });
    const failure = await loadExtensionFromFile(dir + "/bad-version.ts").catch((error) => error);
    console.log(JSON.stringify({ names: [typed.extension.name, plain.extension.name], seen: globalThis.seen, code: failure.code, file: failure.file }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
  expect(JSON.parse(stdout)).toEqual({
    names: ["typed+helper", "plain"],
    seen: 42,
    code: "EXTENSION_API_VERSION",
    file: path.join(dir, "bad-version.ts"),
  });
}, 60_000);
