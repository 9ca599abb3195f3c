import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNTIME_HOOK_NAMES } from "./runtime-hook-names";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const backticked = (text: string) =>
  new Set([...text.matchAll(/`([a-z]+(?:_[a-z]+)+|context)`/g)].map((m) => m[1]));

describe("the event catalogue matches the code", () => {
  it("every hook name is in the README's event table and in the reference", () => {
    const readme = backticked(read("README.md").split("## Events")[1] ?? "");
    const reference = backticked(read("docs/reference.md"));
    for (const name of [...RUNTIME_HOOK_NAMES, "hook_error"]) {
      expect(readme, `README: ${name}`).toContain(name);
      expect(reference, `reference: ${name}`).toContain(name);
    }
  });

  it("uses snake_case names only", () => {
    for (const name of RUNTIME_HOOK_NAMES) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});
