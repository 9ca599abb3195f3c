import type { ModelApi } from "../model/model";

/** Longest tool call id each API accepts. */
const MAX_ID_LENGTH: Record<string, number> = {
  "anthropic-messages": 64,
  "openai-chat": 40,
  "openai-responses": 64,
};

/**
 * Makes a tool call id acceptable to `api`: characters outside `[A-Za-z0-9_-]` become `_`, and the
 * id is cut to the API's limit (64 for Anthropic and OpenAI Responses, 40 for Chat Completions).
 * Ids that are valid and unused come back unchanged. `taken` holds the ids already handed out in the
 * same request; a clash (two turns that reused `call_0`, or two ids equal after cutting) gets a
 * numeric suffix, because APIs reject duplicate tool call ids. Adds the result to `taken`.
 */
export function sanitizeToolCallId(id: string, api: ModelApi, taken: Set<string>): string {
  const limit = MAX_ID_LENGTH[api] ?? 64;
  let candidate = id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, limit);
  if (candidate === "") candidate = "call";
  const base = candidate;
  for (let counter = 2; taken.has(candidate); counter++) {
    const suffix = `_${counter}`;
    candidate = `${base.slice(0, limit - suffix.length)}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}
