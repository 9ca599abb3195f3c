import { createRequire } from "node:module";
import type * as Zod from "zod";

let schema: Zod.ZodObject | undefined;

/**
 * Internal zod schema of one settings file (every field optional; unknown keys are kept). zod is
 * loaded by the first call (only when a settings file exists), not when the package is imported: the
 * offline commands that find no settings file never load it.
 */
export function settingsFileSchema(): Zod.ZodObject {
  if (schema === undefined) {
    const { z } = createRequire(import.meta.url)("zod") as typeof Zod;
    schema = buildSchema(z);
  }
  return schema;
}

function buildSchema(z: typeof Zod.z): Zod.ZodObject {
  const tokenCount = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

  const fraction = z.number().min(0).max(1);
  const policyName = z.enum(["pi", "mask", "cache-aware"]);
  const compactionFields = {
    reserveTokens: tokenCount.optional(),
    keepRecentTokens: tokenCount.optional(),
  };

  return z.looseObject({
    compaction: z
      .strictObject({
        enabled: z.boolean().optional(),
        ...compactionFields,
        modelOverrides: z.record(z.string(), z.strictObject(compactionFields)).optional(),
        offlineFallback: z.boolean().optional(),
        maxConsecutiveAutoCompactions: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
      })
      .optional(),
    contextPolicy: z
      .union([
        policyName,
        z.strictObject({
          name: policyName,
          triggerFraction: fraction.optional(),
          minToolResultTokens: tokenCount.optional(),
          protectRecentTokens: tokenCount.optional(),
          horizonRequests: tokenCount.optional(),
          summaryFraction: fraction.optional(),
          cacheAnchor: z.boolean().optional(),
          keepRecentTokens: tokenCount.optional(),
          keepUserPromptTokens: tokenCount.optional(),
          shareSummaryCache: z.boolean().optional(),
        }),
      ])
      .optional(),
    branchSummary: z
      .strictObject({ reserveTokens: tokenCount.optional(), skipPrompt: z.boolean().optional() })
      .optional(),
    defaultProvider: z.string().min(1).optional(),
    defaultModel: z.string().min(1).optional(),
    defaultThinkingLevel: z.enum(["off", "minimal", "low", "medium", "high"]).optional(),
    extensions: z.array(z.string().min(1)).optional(),
    extensionTimeoutMs: tokenCount.optional(),
    allowedApiKeyEnv: z
      .array(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "must be an environment variable name" }),
      )
      .optional(),
    tools: z
      .strictObject({
        bashTimeoutSeconds: tokenCount.optional(),
        allowedFolders: z
          .array(
            z
              .string()
              .min(1)
              .refine((folder) => folder === "~" || folder.startsWith("/") || folder.startsWith("~/"), {
                message: "must be an absolute path or start with ~/",
              }),
          )
          .optional(),
      })
      .optional(),
  });
}
