/**
 * Example extension: write compaction summaries with a cheaper model than the one the session talks
 * to. Thresholds, budgets and the cut point stay those of the session's model; only the summary
 * call switches (through the session's provider, so the same API key and endpoint are used).
 *
 * Configure it in `settings.json` (global or project):
 *
 * ```json
 * {
 *   "extensions": ["path/to/cheap-model-compaction.ts"],
 *   "cheapModelCompaction": { "model": "claude-haiku-4-5", "maxTokens": 8192 }
 * }
 * ```
 *
 * `model` is the id of the cheaper model (same provider and API as the session's model);
 * `contextWindow` and `maxTokens` optionally describe it (default: the session model's values).
 *
 * When the cheap summary fails, the handler throws: the session reports a `hook_error` and makes
 * its default summary with the session's model, so a missing cheap model never blocks compaction.
 *
 * The file imports types only, so it can be loaded from any folder (`loadExtensionFromFile`):
 * everything it calls comes through the API object the session hands to `setup`.
 */
import type { ExtensionDefinition } from "@arbor/extensions";
import type { Model } from "@arbor/providers";
import type { RuntimeExtensionApi } from "@arbor/runtime";

/** The `cheapModelCompaction` settings object. */
export interface CheapModelCompactionConfig {
  model: string;
  contextWindow?: number;
  maxTokens?: number;
}

/** Milliseconds a summary may take before the session gives up on this handler. */
const SUMMARY_TIMEOUT_MS = 120_000;

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value > 0;
}

/** Reads and checks `settings.cheapModelCompaction`; throws naming the key at fault. */
export function readCheapModelConfig(settings: Readonly<Record<string, unknown>>): CheapModelCompactionConfig {
  const raw = settings.cheapModelCompaction;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new Error('settings.cheapModelCompaction must be an object such as { "model": "claude-haiku-4-5" }');
  }
  const config = raw as Record<string, unknown>;
  if (typeof config.model !== "string" || config.model.length === 0) {
    throw new Error("settings.cheapModelCompaction.model must be a non-empty model id");
  }
  for (const key of ["contextWindow", "maxTokens"] as const) {
    if (config[key] !== undefined && !isPositiveInteger(config[key])) {
      throw new Error(`settings.cheapModelCompaction.${key} must be a positive integer`);
    }
  }
  return config as unknown as CheapModelCompactionConfig;
}

/** The cheap model's descriptor: the session's model with the cheap id (and limits, when given). */
export function cheapModelFrom(main: Model, config: CheapModelCompactionConfig): Model {
  return {
    ...main,
    id: config.model,
    name: config.model,
    contextWindow: config.contextWindow ?? main.contextWindow,
    maxTokens: config.maxTokens ?? main.maxTokens,
  };
}

const cheapModelCompaction: ExtensionDefinition<RuntimeExtensionApi> = {
  apiVersion: 1,
  name: "cheap-model-compaction",
  setup(api) {
    const config = readCheapModelConfig(api.settings);
    api.on(
      "session_before_compact",
      async (event, context) => {
        const model = cheapModelFrom(api.session.getModel(), config);
        const result = await api.compaction.compact(event.preparation, {
          provider: api.session.getProvider(),
          model,
          customInstructions: event.customInstructions,
          signal: context.signal,
        });
        return {
          compaction: {
            summary: result.summary,
            firstKeptEntryId: result.firstKeptEntryId,
            tokensBefore: result.tokensBefore,
            details: { ...result.details, summarizedBy: `${model.provider}/${model.id}` },
            usage: result.usage,
          },
        };
      },
      { timeoutMs: SUMMARY_TIMEOUT_MS },
    );
  },
};

export default cheapModelCompaction;
