import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
// @ts-expect-error: plain .mjs script without types
import { processMarkdown } from "./readme-examples.mjs";

const tempDirs: string[] = [];
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function makeRepo(readme: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-readme-"));
  tempDirs.push(dir);
  fs.mkdirSync(path.join(dir, "packages/lib/examples"), { recursive: true });
  fs.writeFileSync(path.join(dir, "packages/lib/package.json"), JSON.stringify({ name: "@t/lib" }));
  fs.writeFileSync(
    path.join(dir, "packages/lib/examples/use.ts"),
    'import { a } from "@t/lib";\nimport { b } from "@arbor/providers/anthropic";\nconsole.log(a, b);\n',
  );
  fs.writeFileSync(path.join(dir, "packages/lib/README.md"), readme);
  return dir;
}

const install = "```bash\nnpm install @t/lib @arbor/providers @anthropic-ai/sdk\n```\n";
const marker = "<!-- example: packages/lib/examples/use.ts -->\n";

it("accepts a block equal to its file, and an install line naming what the example needs", () => {
  const file = fs.readFileSync;
  const dir = makeRepo(`${install}${marker}\`\`\`ts\n\`\`\`\n`);
  processMarkdown("packages/lib/README.md", { root: dir, write: true });
  expect(file(path.join(dir, "packages/lib/README.md"), "utf8")).toContain('import { a } from "@t/lib";');
  expect(processMarkdown("packages/lib/README.md", { root: dir })).toEqual([]);
});

it("rejects a block without a marker, a stale block, a missing file and an incomplete install line", () => {
  expect(
    processMarkdown("packages/lib/README.md", { root: makeRepo(`${install}\`\`\`ts\nlet x = 1;\n\`\`\`\n`) }),
  ).toEqual([
    "packages/lib/README.md:4: a ```ts block without an <!-- example: path --> marker naming its file",
  ]);
  expect(
    processMarkdown("packages/lib/README.md", {
      root: makeRepo(`${install}${marker}\`\`\`ts\nold\n\`\`\`\n`),
    }),
  ).toEqual(["packages/lib/README.md:5: the block differs from packages/lib/examples/use.ts"]);
  const missing = makeRepo(`${install}<!-- example: packages/lib/examples/gone.ts -->\n\`\`\`ts\n\`\`\`\n`);
  expect(processMarkdown("packages/lib/README.md", { root: missing })).toEqual([
    "packages/lib/README.md:5: example file packages/lib/examples/gone.ts does not exist",
  ]);
  const partial = makeRepo(
    `\`\`\`bash\nnpm install @t/lib @arbor/providers\n\`\`\`\n${marker}\`\`\`ts\n\`\`\`\n`,
  );
  processMarkdown("packages/lib/README.md", { root: partial, write: true });
  expect(processMarkdown("packages/lib/README.md", { root: partial })).toEqual([
    "packages/lib/README.md: the npm install line does not name @anthropic-ai/sdk, which its example needs",
  ]);
});
