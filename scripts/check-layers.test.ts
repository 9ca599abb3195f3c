import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { checkLayers, extractImports } from "./check-layers";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tempDirs: string[] = [];

function makeWorkspace(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-layers-"));
  tempDirs.push(dir);
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), content);
  }
  return dir;
}

function manifest(name: string, layer: number, dependencies: Record<string, string> = {}): string {
  return JSON.stringify({ name, arbor: { layer }, dependencies });
}

afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("extractImports", () => {
  it("finds static, type-only, re-export, side-effect and dynamic imports", () => {
    const source = [
      'import { a } from "one";',
      'import type { B } from "two";',
      'export { c } from "./three";',
      'import "four";',
      'const five = await import("five");',
      '// import { hidden } from "comment";',
      "import {\n  multi,\n  line,\n} from 'six';",
    ].join("\n");
    expect(new Set(extractImports(source))).toEqual(
      new Set(["one", "two", "./three", "four", "five", "six"]),
    );
    expect(extractImports(source)).not.toContain("comment");
  });
});

describe("checkLayers", () => {
  it("passes on this repository", () => {
    expect(checkLayers(repoRoot)).toEqual([]);
  });

  it("catches an upward import from a lower layer", () => {
    const root = makeWorkspace({
      "packages/low/package.json": manifest("@arbor/low", 0),
      "packages/low/src/index.ts": 'import { thing } from "@arbor/high";\nexport const x = thing;\n',
      "packages/high/package.json": manifest("@arbor/high", 2, { "@arbor/low": "workspace:^" }),
      "packages/high/src/index.ts": 'export { x } from "@arbor/low";\nexport const thing = 1;\n',
    });
    const violations = checkLayers(root);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({
      kind: "upward-import",
      packageName: "@arbor/low",
      specifier: "@arbor/high",
    });
  });

  it("catches a same-layer import and an upward package.json dependency", () => {
    const root = makeWorkspace({
      "packages/a/package.json": manifest("@arbor/a", 1, { "@arbor/b": "workspace:^" }),
      "packages/a/src/index.ts": 'import type { T } from "@arbor/b/sub";\nexport type U = T;\n',
      "packages/b/package.json": manifest("@arbor/b", 1),
      "packages/b/src/index.ts": "export type T = number;\n",
    });
    const kinds = checkLayers(root)
      .map((violation) => violation.kind)
      .sort();
    expect(kinds).toEqual(["upward-dependency", "upward-import"]);
  });

  it("catches an SDK reached from a library's root entry through a relative import", () => {
    const root = makeWorkspace({
      "packages/p/package.json": manifest("@arbor/p", 0),
      "packages/p/src/index.ts": 'export { helper } from "./internal/helper";\n',
      "packages/p/src/internal/helper.ts": 'import OpenAI from "openai";\nexport const helper = OpenAI;\n',
      "packages/p/src/openai/index.ts": 'import OpenAI from "openai";\nexport const ok = OpenAI;\n',
    });
    const violations = checkLayers(root);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ kind: "heavy-root-import", specifier: "openai" });
    expect(violations[0]?.file).toContain("helper.ts");
  });
});
