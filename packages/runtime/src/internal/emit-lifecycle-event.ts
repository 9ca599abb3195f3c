import type { SessionShutdownEvent, SessionStartEvent } from "../events/lifecycle-events";
import type { SessionCore } from "./session-core";

/**
 * Emits `session_start` or `session_shutdown` to the extensions (not to listeners) under the session
 * lock, so that handlers' `api.session` appends apply at once; directly when the caller already holds
 * the lock (a `dispose()` from inside an operation). Handler failures are isolated by the bus.
 */
export async function emitLifecycleEvent(
  core: SessionCore,
  event: SessionStartEvent | SessionShutdownEvent,
): Promise<void> {
  const emit = async () => {
    if (event.type === "session_start") await core.bus.emit("session_start", event);
    else await core.bus.emit("session_shutdown", event);
  };
  if (core.lock.isHeldByCaller()) return emit();
  return core.lock.run(event.type === "session_start" ? "start" : "dispose", emit);
}
