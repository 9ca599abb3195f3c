import type { Settings } from "./settings";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Deep-merges settings: plain objects merge key by key (recursively), arrays and scalars in `override`
 * replace those in `base`, and `undefined` in `override` is skipped. Returns a new object; inputs are
 * not mutated.
 */
export function mergeSettings(base: Settings, override: Settings): Settings {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? mergeSettings(current, value) : value;
  }
  return merged as Settings;
}
