/** Where a setting can come from, most specific first. */
export interface SettingSources {
  /** Per-call `StreamOptions`. */
  call?: string;
  /** The model descriptor. */
  model?: string;
  /** The provider factory options. */
  provider?: string;
  /** Environment variables to read `envVar` from. */
  env: Record<string, string | undefined>;
  envVar: string;
}

/** The first non-empty value among call, model, provider and environment, or `undefined`. */
export function resolveSetting(sources: SettingSources): string | undefined {
  for (const value of [sources.call, sources.model, sources.provider, sources.env[sources.envVar]]) {
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}
