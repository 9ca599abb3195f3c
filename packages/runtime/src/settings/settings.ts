import type { ContextPolicyName, ContextPolicySettings } from "../policies/context-policy-settings";

/** Per-model overrides of the compaction token settings, keyed by `"<provider>/<modelId>"`. */
export interface CompactionModelOverride {
  reserveTokens?: number;
  keepRecentTokens?: number;
}

/**
 * Arbor settings, as read from `~/.arbor/settings.json` (global; `ARBOR_HOME` moves `~/.arbor`) and
 * `<project>/.arbor/settings.json` (project), merged with the project winning. Every field is optional;
 * Consumers fill the documented defaults.
 */
export interface Settings {
  compaction?: {
    /** Automatic compaction (threshold and overflow recovery). Default `true`. Manual compaction always works. */
    enabled?: boolean;
    /** Tokens kept free below the context window; compaction triggers above `window - reserveTokens`. Default 16384. */
    reserveTokens?: number;
    /** Recent tokens kept verbatim after a compaction. Default 20000. */
    keepRecentTokens?: number;
    /** Overrides per `"<provider>/<modelId>"`; each field falls back independently. */
    modelOverrides?: Record<string, CompactionModelOverride>;
    /** Use the offline summarizer when the LLM summary fails. Default `true`. */
    offlineFallback?: boolean;
    /**
     * Loop guard: automatic compactions allowed back to back without a successful response (or,
     * for boundary compactions, without a user message). Default 3. The `compaction` option of
     * `createAgentSession` wins over it.
     */
    maxConsecutiveAutoCompactions?: number;
  };
  /**
   * The context policy (`pi`, `mask`, `cache-aware`, or an object with its knobs; see
   * `ContextPolicySettings`). Default: none, which behaves as `pi` (threshold summaries only).
   */
  contextPolicy?: ContextPolicyName | ContextPolicySettings;
  branchSummary?: {
    /** Token budget kept free when summarizing an abandoned branch. Default 16384. */
    reserveTokens?: number;
    /** Never ask whether to summarize when navigating. Default `false`. */
    skipPrompt?: boolean;
  };
  defaultProvider?: string;
  defaultModel?: string;
  defaultThinkingLevel?: "off" | "minimal" | "low" | "medium" | "high";
  /** Extension files to load (absolute, or relative to the settings file's folder). */
  extensions?: string[];
  /** Per-handler timeout for extension hooks, in milliseconds. */
  extensionTimeoutMs?: number;
  /**
   * Environment variables besides `*_API_KEY` that a project's models file may name as `apiKeyEnv`
   * (the `arbor` CLI reads this from the user's own settings file only, never from a project's).
   */
  allowedApiKeyEnv?: string[];
  /** Limits of the built-in coding tools of the `arbor` CLI. */
  tools?: {
    /** Seconds after which a `bash` call that names no timeout is stopped; `0` for no limit. Default 120. */
    bashTimeoutSeconds?: number;
    /**
     * Folders besides the working folder that `read`, `write` and `edit` may use without asking
     * (absolute, or starting with `~/`). Symlinks are resolved before the check.
     */
    allowedFolders?: string[];
  };
  /** Unknown keys are preserved (read by extensions). */
  [key: string]: unknown;
}
