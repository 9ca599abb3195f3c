import type { SessionInfoEntry } from "@arbor/session-store";
import { notify, type SessionCore } from "../internal/session-core";
import { RuntimeError } from "../runtime-error";

/**
 * Appends a `session_info` entry naming the session (the store collapses newlines and trims; an empty
 * name clears it), then emits `session_info_changed` with the name as stored. The caller holds the
 * session lock.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` when `name` is not a string; store errors as thrown.
 */
export async function setSessionName(core: SessionCore, name: string): Promise<SessionInfoEntry> {
  if (typeof name !== "string") {
    throw new RuntimeError("INVALID_ARGUMENT", `setSessionName expects a string, got ${typeof name}`);
  }
  const entry = core.store.appendSessionInfo(name);
  await notify(core, { type: "session_info_changed", name: core.store.getSessionName() });
  return entry;
}
