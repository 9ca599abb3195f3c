import type { RuntimeHooks } from "./runtime-hooks";

/** One flag per hook of {@link RuntimeHooks}: the compiler rejects a missing or an extra name. */
const HOOKS = {
  agent_start: true,
  agent_end: true,
  turn_start: true,
  turn_end: true,
  message_start: true,
  message_update: true,
  message_end: true,
  tool_execution_start: true,
  tool_execution_update: true,
  tool_execution_end: true,
  compaction_start: true,
  compaction_fallback: true,
  compaction_end: true,
  session_compact: true,
  session_compact_failed: true,
  session_tree: true,
  session_error: true,
  model_select: true,
  session_info_changed: true,
  session_start: true,
  session_shutdown: true,
  session_before_compact: true,
  session_before_tree: true,
  session_before_fork: true,
  context: true,
  before_provider_request: true,
  agent_before_settle: true,
  agent_settled: true,
  tool_call: true,
  tool_result: true,
} as const satisfies Record<keyof RuntimeHooks, true>;

/**
 * Every hook name an extension can pass to `api.on` (besides the bus's own `hook_error`). The
 * session's bus is made with this list, so any other name throws `ExtensionError`
 * `EXTENSION_UNKNOWN_HOOK` naming the closest of these.
 */
export const RUNTIME_HOOK_NAMES: readonly (keyof RuntimeHooks)[] = Object.freeze(
  Object.keys(HOOKS) as (keyof RuntimeHooks)[],
);
