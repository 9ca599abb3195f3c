import { CompactionSettingsError } from "./compaction-settings-error";

/** Resolved compaction settings, as `prepareCompaction` and `shouldCompact` use them. */
export interface CompactionSettings {
  /** Automatic compaction (threshold and overflow recovery). Manual compaction works either way. */
  enabled: boolean;
  /** Tokens kept free for the model's answer: compaction triggers above `contextWindow - reserveTokens`. */
  reserveTokens: number;
  /** Approximate tokens of recent history kept verbatim after a compaction. */
  keepRecentTokens: number;
}

/** pi's defaults: enabled, 16384 reserved, 20000 kept. Frozen. */
export const DEFAULT_COMPACTION_SETTINGS: Readonly<CompactionSettings> = Object.freeze({
  enabled: true,
  reserveTokens: 16384,
  keepRecentTokens: 20000,
});

/** Token budgets that may be overridden per model. */
export interface CompactionTokenOverrides {
  reserveTokens?: number;
  keepRecentTokens?: number;
}

/**
 * The `compaction` object of a settings file, as written by a user (values are validated by
 * {@link resolveCompactionSettings}, so they are typed loosely).
 */
export interface CompactionSettingsInput {
  enabled?: unknown;
  reserveTokens?: unknown;
  keepRecentTokens?: unknown;
  /** Keyed by the exact, case-sensitive `"<provider>/<modelId>"` (the id may contain slashes). */
  modelOverrides?: unknown;
}

/** Identifies the active model for `modelOverrides`. */
export interface CompactionModelRef {
  provider: string;
  id: string;
}

type TokenField = "reserveTokens" | "keepRecentTokens";

const EXPECTED_INTEGER = "a non-negative safe integer";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkTokenValue(key: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new CompactionSettingsError(key, value, EXPECTED_INTEGER);
  }
  return value;
}

function resolveTokenField(
  input: CompactionSettingsInput,
  field: TokenField,
  modelKey: string | undefined,
): number {
  const ordinary = checkTokenValue(`compaction.${field}`, input[field]);
  if (modelKey !== undefined && isPlainObject(input.modelOverrides)) {
    const overrideKey = `compaction.modelOverrides[${JSON.stringify(modelKey)}]`;
    const entry = Object.hasOwn(input.modelOverrides, modelKey) ? input.modelOverrides[modelKey] : undefined;
    if (entry !== undefined) {
      if (!isPlainObject(entry)) throw new CompactionSettingsError(overrideKey, entry, "an object");
      const override = checkTokenValue(`${overrideKey}.${field}`, entry[field]);
      if (override !== undefined) return override;
    }
  }
  return ordinary ?? DEFAULT_COMPACTION_SETTINGS[field];
}

/**
 * Resolves compaction settings for a model, with pi's rules:
 * - `enabled` is global (never per model) and defaults to `true`;
 * - each token field resolves independently as
 *   `modelOverrides["<provider>/<id>"][field] ?? compaction[field] ?? default`;
 * - validation is strict and happens here: a present ordinary value that is not a non-negative safe
 *   integer throws even when a valid override exists; a matching override that is not an object throws;
 *   an invalid override field throws. Overrides for other models are not inspected.
 *
 * Beyond pi, a non-boolean `enabled` and a `modelOverrides` that is not an object are rejected instead of
 * being read loosely.
 *
 * @throws {CompactionSettingsError} code `INVALID_COMPACTION_SETTING`, naming the full key and value.
 * Pure: never mutates `input`.
 */
export function resolveCompactionSettings(
  input: CompactionSettingsInput | undefined,
  model?: CompactionModelRef | string,
): CompactionSettings {
  const settings = input ?? {};
  if (!isPlainObject(settings)) throw new CompactionSettingsError("compaction", settings, "an object");
  if (settings.enabled !== undefined && typeof settings.enabled !== "boolean") {
    throw new CompactionSettingsError("compaction.enabled", settings.enabled, "a boolean");
  }
  if (settings.modelOverrides !== undefined && !isPlainObject(settings.modelOverrides)) {
    throw new CompactionSettingsError("compaction.modelOverrides", settings.modelOverrides, "an object");
  }
  const modelKey = typeof model === "string" ? model : model ? `${model.provider}/${model.id}` : undefined;
  return {
    enabled: (settings.enabled as boolean | undefined) ?? DEFAULT_COMPACTION_SETTINGS.enabled,
    reserveTokens: resolveTokenField(settings, "reserveTokens", modelKey),
    keepRecentTokens: resolveTokenField(settings, "keepRecentTokens", modelKey),
  };
}

/**
 * True when the context is over the threshold: `settings.enabled && contextTokens > contextWindow - reserveTokens`
 * (strict). Equal to pi 1.6.0. A non-positive `contextWindow` never triggers. Pure.
 */
export function shouldCompact(
  contextTokens: number,
  contextWindow: number,
  settings: Pick<CompactionSettings, "enabled" | "reserveTokens">,
): boolean {
  if (!settings.enabled || contextWindow <= 0) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
}
