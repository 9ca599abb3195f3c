import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { jsonScanModuleText } from "./json-scan-module-text";

describe("json-scan-wasm.ts", () => {
  it("is the scanner's program as assembled now (else: pnpm exec tsx apps/cli/scripts/write-json-scan-wasm.ts)", () => {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "json-scan-wasm.ts");
    expect(fs.readFileSync(file, "utf8")).toBe(jsonScanModuleText());
  });
});
