import type { AgentSession } from "@arbor/runtime";
import type { SessionStore } from "@arbor/session-store";
import { type AgentEnvironment, type ModelBinding, startAgentSession } from "../agent/prepare-agent";

/** A session with its store and model. */
export interface SessionSlot {
  store: SessionStore;
  binding: ModelBinding;
}

/**
 * Starts the agent session over `next` (extensions get `session_start` with `reason` and the file
 * left). When it cannot start, starts one again over `previous`, whose session the caller has already
 * disposed but whose store is still open (reason `resume`), and reports the failure in `error`: the
 * caller carries on in the session it came from. Throws only if that second start fails too.
 */
export async function startNextSession(
  environment: AgentEnvironment,
  next: SessionSlot,
  previous: SessionSlot,
  reason: "new" | "resume" | "fork",
): Promise<{ session: AgentSession; slot: SessionSlot; error?: unknown }> {
  try {
    const session = await startAgentSession(environment, next.store, next.binding, {
      reason,
      ...(previous.store.path !== undefined ? { previousSessionFile: previous.store.path } : {}),
    });
    return { session, slot: next };
  } catch (error) {
    const session = await startAgentSession(environment, previous.store, previous.binding, {
      reason: "resume",
      ...(next.store.path !== undefined ? { previousSessionFile: next.store.path } : {}),
    });
    return { session, slot: previous, error };
  }
}
