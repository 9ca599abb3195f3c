import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", "tiktoken/index": "src/tiktoken/index.ts" },
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
