import type { Model } from "./model";

type CatalogEntry = Omit<Model, "provider" | "api">;

const TEXT_IMAGE: Model["input"] = ["text", "image"];
/** o-series models accept low / medium / high only. */
const O_SERIES = { reasoningEffort: { minimal: "low" } };

const ENTRIES: CatalogEntry[] = [
  {
    id: "gpt-4o",
    name: "GPT-4o",
    contextWindow: 128_000,
    maxTokens: 16_384,
    reasoning: false,
    input: TEXT_IMAGE,
    cost: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
  },
  {
    id: "gpt-4o-mini",
    name: "GPT-4o mini",
    contextWindow: 128_000,
    maxTokens: 16_384,
    reasoning: false,
    input: TEXT_IMAGE,
    cost: { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0 },
  },
  {
    id: "gpt-4.1",
    name: "GPT-4.1",
    contextWindow: 1_047_576,
    maxTokens: 32_768,
    reasoning: false,
    input: TEXT_IMAGE,
    cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
  },
  {
    id: "gpt-4.1-mini",
    name: "GPT-4.1 mini",
    contextWindow: 1_047_576,
    maxTokens: 32_768,
    reasoning: false,
    input: TEXT_IMAGE,
    cost: { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 },
  },
  {
    id: "gpt-4.1-nano",
    name: "GPT-4.1 nano",
    contextWindow: 1_047_576,
    maxTokens: 32_768,
    reasoning: false,
    input: TEXT_IMAGE,
    cost: { input: 0.1, output: 0.4, cacheRead: 0.025, cacheWrite: 0 },
  },
  {
    id: "o1",
    name: "o1",
    contextWindow: 200_000,
    maxTokens: 100_000,
    reasoning: true,
    input: TEXT_IMAGE,
    cost: { input: 15, output: 60, cacheRead: 7.5, cacheWrite: 0 },
    compat: O_SERIES,
  },
  {
    id: "o3",
    name: "o3",
    contextWindow: 200_000,
    maxTokens: 100_000,
    reasoning: true,
    input: TEXT_IMAGE,
    cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
    compat: O_SERIES,
  },
  {
    id: "o3-mini",
    name: "o3-mini",
    contextWindow: 200_000,
    maxTokens: 100_000,
    reasoning: true,
    input: ["text"],
    cost: { input: 1.1, output: 4.4, cacheRead: 0.55, cacheWrite: 0 },
    compat: O_SERIES,
  },
  {
    id: "o4-mini",
    name: "o4-mini",
    contextWindow: 200_000,
    maxTokens: 100_000,
    reasoning: true,
    input: TEXT_IMAGE,
    cost: { input: 1.1, output: 4.4, cacheRead: 0.275, cacheWrite: 0 },
    compat: O_SERIES,
  },
  {
    id: "gpt-5",
    name: "GPT-5",
    contextWindow: 400_000,
    maxTokens: 128_000,
    reasoning: true,
    input: TEXT_IMAGE,
    cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  },
  {
    id: "gpt-5-mini",
    name: "GPT-5 mini",
    contextWindow: 400_000,
    maxTokens: 128_000,
    reasoning: true,
    input: TEXT_IMAGE,
    cost: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
  },
  {
    id: "gpt-5-nano",
    name: "GPT-5 nano",
    contextWindow: 400_000,
    maxTokens: 128_000,
    reasoning: true,
    input: TEXT_IMAGE,
    cost: { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0 },
  },
  {
    id: "gpt-5.1",
    name: "GPT-5.1",
    contextWindow: 400_000,
    maxTokens: 128_000,
    reasoning: true,
    input: TEXT_IMAGE,
    cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
    compat: { reasoningEffort: { off: "none", minimal: "low" } },
  },
  {
    id: "gpt-5.2",
    name: "GPT-5.2",
    contextWindow: 400_000,
    maxTokens: 128_000,
    reasoning: true,
    input: TEXT_IMAGE,
    cost: { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 0 },
    compat: { reasoningEffort: { off: "none", minimal: "low" } },
  },
];

/**
 * Built-in OpenAI models (GPT-4o, GPT-4.1, o-series, GPT-5 family), served by
 * `@arbor/providers/openai` over the Responses API. Figures follow OpenAI's published model pages
 * and price list (USD per million tokens). To use one over Chat Completions, copy it with
 * `api: "openai-chat"`.
 */
export const OPENAI_MODELS: readonly Model[] = ENTRIES.map((entry) => ({
  ...entry,
  provider: "openai",
  api: "openai-responses",
}));
