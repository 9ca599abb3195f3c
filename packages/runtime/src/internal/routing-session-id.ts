import type { SessionCore } from "./session-core";

/**
 * The `sessionId` stream option (OpenAI's `prompt_cache_key`, which routes a session's requests to
 * the same prompt cache) of a request the session makes: `streamOptions.sessionId` when the
 * application set one, else the store's `sessionId`. Read at each request, so a session made by
 * `fork()` (or on a new store) sends its own id.
 *
 * For a summary request (`target` `"summary"`) the id is given only when the summary goes to the
 * session's provider (no `compaction.provider`, or the same object as `provider`): another backend
 * has no cache entry of this session. Undefined then, and the summarizer picks its own.
 *
 * Opting out is the providers package's business: `streamOptions.cacheRetention: "none"` or a
 * model with `compat.supportsPromptCaching: false` sends no cache key at all.
 */
export function routingSessionId(core: SessionCore, target: "agent" | "summary"): string | undefined {
  if (target === "summary") {
    const summaryProvider = core.options.compaction?.provider;
    if (summaryProvider !== undefined && summaryProvider !== core.options.provider) return undefined;
  }
  return core.options.streamOptions?.sessionId ?? core.store.sessionId;
}
