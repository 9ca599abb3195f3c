import { defineProject } from "vitest/config";

// `pnpm --filter @arbor/providers test:live`: real API calls, gated by ANTHROPIC_API_KEY / OPENAI_API_KEY.
export default defineProject({
  test: {
    name: "providers-live",
    include: ["src/**/*.live.test.ts"],
    testTimeout: 60_000,
  },
});
