import type { Model } from "./model";

type CatalogEntry = Omit<Model, "provider" | "api">;

const OPUS_COST = { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 };
const SONNET_COST = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const HAIKU_COST = { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 };
const ADAPTIVE = { anthropicThinking: "adaptive" as const };
/** Opus 4.7 and later reject sampling parameters. */
const ADAPTIVE_NO_TEMPERATURE = { anthropicThinking: "adaptive" as const, supportsTemperature: false };

const ENTRIES: CatalogEntry[] = [
  {
    id: "claude-opus-4-5",
    name: "Claude Opus 4.5",
    contextWindow: 200_000,
    maxTokens: 64_000,
    reasoning: true,
    input: ["text", "image"],
    cost: OPUS_COST,
  },
  {
    id: "claude-opus-4-6",
    name: "Claude Opus 4.6",
    contextWindow: 1_000_000,
    maxTokens: 128_000,
    reasoning: true,
    input: ["text", "image"],
    cost: OPUS_COST,
    compat: ADAPTIVE,
  },
  {
    id: "claude-opus-4-7",
    name: "Claude Opus 4.7",
    contextWindow: 1_000_000,
    maxTokens: 128_000,
    reasoning: true,
    input: ["text", "image"],
    cost: OPUS_COST,
    compat: ADAPTIVE_NO_TEMPERATURE,
  },
  {
    id: "claude-opus-4-8",
    name: "Claude Opus 4.8",
    contextWindow: 1_000_000,
    maxTokens: 128_000,
    reasoning: true,
    input: ["text", "image"],
    cost: OPUS_COST,
    compat: ADAPTIVE_NO_TEMPERATURE,
  },
  {
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    contextWindow: 200_000,
    maxTokens: 64_000,
    reasoning: true,
    input: ["text", "image"],
    cost: SONNET_COST,
  },
  {
    id: "claude-sonnet-4-6",
    name: "Claude Sonnet 4.6",
    contextWindow: 1_000_000,
    maxTokens: 128_000,
    reasoning: true,
    input: ["text", "image"],
    cost: SONNET_COST,
    compat: ADAPTIVE,
  },
  {
    id: "claude-haiku-4-5",
    name: "Claude Haiku 4.5",
    contextWindow: 200_000,
    maxTokens: 64_000,
    reasoning: true,
    input: ["text", "image"],
    cost: HAIKU_COST,
  },
];

/**
 * Built-in Anthropic models (the Claude 4.x models the Messages API still serves: Opus 4.5 to 4.8,
 * Sonnet 4.5 and 4.6, Haiku 4.5), served by `@arbor/providers/anthropic`. Figures follow Anthropic's
 * published model table and price list (USD per million tokens; cache writes at the 5-minute
 * rate). Ids are the API aliases that track the latest snapshot of each model. Sonnet 4.5 and
 * Opus 4.5 are deprecated by Anthropic (end of life 2026-11-30 and 2027-01-22).
 */
export const ANTHROPIC_MODELS: readonly Model[] = ENTRIES.map((entry) => ({
  ...entry,
  provider: "anthropic",
  api: "anthropic-messages",
}));
