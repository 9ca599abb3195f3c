import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { entryHeadModuleText } from "./entry-head-module-text";

describe("entry-head-wasm.ts", () => {
  it("is the load scan's program as assembled now (else: pnpm exec tsx packages/session-store/scripts/write-entry-head-wasm.ts)", () => {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "entry-head-wasm.ts");
    expect(fs.readFileSync(file, "utf8")).toBe(entryHeadModuleText());
  });
});
