import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const sourceDir = dirname(fileURLToPath(import.meta.url));

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1] as string);
}

/** Every source file reachable from `entry` through relative imports. */
function reachableFiles(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith(".")) queue.push(`${resolve(dirname(file), specifier)}.ts`);
    }
  }
  return seen;
}

describe("package surface", () => {
  it("exports these runtime names from the root entry", async () => {
    expect(Object.keys(await import("./index")).sort()).toMatchInlineSnapshot(`
      [
        "ANTHROPIC_MODELS",
        "ArborError",
        "CONTEXT_OVERFLOW_PATTERNS",
        "IMAGE_OMITTED_TEXT",
        "MISSING_TOOL_RESULT_TEXT",
        "MissingPeerDependencyError",
        "NOT_OVERFLOW_PATTERNS",
        "OPENAI_MODELS",
        "ProviderError",
        "calculateCost",
        "classifyProviderError",
        "complete",
        "createEmptyUsage",
        "createSecretRedactor",
        "defineModel",
        "getModel",
        "hasErrorMarker",
        "isCacheAnchorUsable",
        "isContextOverflow",
        "isContextOverflowText",
        "isFromSameModel",
        "listModels",
        "normalizeMessagesForProvider",
        "parseRetryAfter",
        "redactSecrets",
        "setErrorMarker",
      ]
    `);
  });

  it("exports these runtime names from the subpaths", async () => {
    expect(Object.keys(await import("./anthropic/index")).sort()).toMatchInlineSnapshot(`
      [
        "ANTHROPIC_THINKING_BUDGETS",
        "buildAnthropicRequest",
        "createAnthropicProvider",
      ]
    `);
    expect(Object.keys(await import("./openai/index")).sort()).toMatchInlineSnapshot(`
      [
        "buildOpenAIChatRequest",
        "buildOpenAIResponsesRequest",
        "createOpenAIProvider",
      ]
    `);
    expect(Object.keys(await import("./testing/index")).sort()).toMatchInlineSnapshot(`
      [
        "OVERFLOW_ERROR_BODIES",
        "contentReply",
        "createScriptedProvider",
        "createTestLlmServer",
        "errorReply",
        "overflowReply",
        "rateLimitReply",
        "rawStreamReply",
        "serverErrorReply",
        "startWireServer",
        "textReply",
        "toolCallReply",
      ]
    `);
  });

  it("keeps the SDKs out of the root entry", () => {
    const files = reachableFiles(join(sourceDir, "index.ts"));
    expect(files.size).toBeGreaterThan(10);
    for (const file of files) {
      const heavy = importsOf(file).filter((specifier) =>
        /^(@anthropic-ai\/sdk|openai)(\/|$)/.test(specifier),
      );
      expect(heavy, file).toEqual([]);
    }
  });

  it("keeps test frameworks and SDKs out of the published testing kit", () => {
    const files = reachableFiles(join(sourceDir, "testing", "index.ts"));
    expect(files.size).toBeGreaterThan(5);
    for (const file of files) {
      const unwanted = importsOf(file).filter((specifier) =>
        /^(vitest|jest|@jest|mocha|@anthropic-ai\/sdk|openai)(\/|$)/.test(specifier),
      );
      expect(unwanted, file).toEqual([]);
    }
  });
});
