import { ArborError } from "../errors/arbor-error";
import type { Model, ModelApi, ModelCompat, ModelCost, ModelInput } from "./model";

/** What `defineModel` needs; everything else gets a default. */
export interface ModelDefinition {
  id: string;
  provider: string;
  /** Default `"openai-chat"`, what OpenAI-compatible servers speak. */
  api?: ModelApi;
  /** Server endpoint, for example `http://localhost:11434/v1` for Ollama. */
  baseUrl?: string;
  name?: string;
  /** Context window in tokens (required: compaction and overflow detection depend on it). */
  contextWindow: number;
  /** Default: the smaller of 16384 and `contextWindow`. */
  maxTokens?: number;
  /** Default false. */
  reasoning?: boolean;
  /** Default `["text"]`. */
  input?: ModelInput[];
  /** Per million tokens; default all 0 (local servers). Missing fields are 0. */
  cost?: Partial<ModelCost>;
  headers?: Record<string, string>;
  compat?: ModelCompat;
}

function invalid(definition: Partial<ModelDefinition>, field: string, problem: string): ArborError {
  const name = `${String(definition.provider ?? "?")}/${String(definition.id ?? "?")}`;
  return new ArborError("MODEL_INVALID", `defineModel: "${field}" ${problem} (model "${name}")`);
}

function checkPositiveInteger(
  definition: ModelDefinition,
  field: "contextWindow" | "maxTokens",
  value: unknown,
) {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw invalid(definition, field, `must be a positive integer, got ${JSON.stringify(value)}`);
  }
}

function checkCost(definition: ModelDefinition): ModelCost {
  const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...definition.cost };
  for (const [key, value] of Object.entries(cost)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw invalid(definition, `cost.${key}`, `must be a non-negative number, got ${JSON.stringify(value)}`);
    }
  }
  return cost;
}

function checkBaseUrl(definition: ModelDefinition): void {
  if (definition.baseUrl === undefined) return;
  let protocol: string | undefined;
  try {
    protocol = new URL(definition.baseUrl).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw invalid(definition, "baseUrl", `must be an http(s) URL, got ${JSON.stringify(definition.baseUrl)}`);
  }
}

/**
 * Builds a model descriptor for a model outside the built-in catalog, typically one served by an
 * OpenAI-compatible server (Ollama, vLLM, llama.cpp server, LM Studio):
 *
 * ```ts
 * const qwen = defineModel({ provider: "ollama", id: "qwen3:8b", baseUrl: "http://localhost:11434/v1", contextWindow: 40_960 });
 * ```
 *
 * Pure: returns a new object and registers nothing.
 *
 * @throws ArborError `MODEL_INVALID` naming the field and the model when a value is missing or
 *   out of range (empty id or provider, non-positive windows, `maxTokens > contextWindow`, a
 *   negative price, an unknown input modality, a non-http `baseUrl`).
 */
export function defineModel(definition: ModelDefinition): Model {
  for (const field of ["id", "provider"] as const) {
    const value = definition[field];
    if (typeof value !== "string" || value.trim() === "") {
      throw invalid(definition, field, `must be a non-empty string, got ${JSON.stringify(value)}`);
    }
  }
  checkPositiveInteger(definition, "contextWindow", definition.contextWindow);
  const maxTokens = definition.maxTokens ?? Math.min(16_384, definition.contextWindow);
  checkPositiveInteger(definition, "maxTokens", maxTokens);
  if (maxTokens > definition.contextWindow) {
    throw invalid(
      definition,
      "maxTokens",
      `(${maxTokens}) must not exceed contextWindow (${definition.contextWindow})`,
    );
  }
  const input = definition.input ?? ["text"];
  const unknownInput = input.find((modality) => modality !== "text" && modality !== "image");
  if (input.length === 0 || unknownInput !== undefined) {
    throw invalid(definition, "input", `must list "text" and/or "image", got ${JSON.stringify(input)}`);
  }
  checkBaseUrl(definition);
  const model: Model = {
    id: definition.id,
    provider: definition.provider,
    api: definition.api ?? "openai-chat",
    contextWindow: definition.contextWindow,
    maxTokens,
    reasoning: definition.reasoning ?? false,
    input: [...input],
    cost: checkCost(definition),
  };
  if (definition.name !== undefined) model.name = definition.name;
  if (definition.baseUrl !== undefined) model.baseUrl = definition.baseUrl;
  if (definition.headers !== undefined) model.headers = { ...definition.headers };
  if (definition.compat !== undefined) model.compat = { ...definition.compat };
  return model;
}
