import { CURRENT_SESSION_VERSION, type SessionHeader } from "../session-entry";
import { SessionStoreError } from "../session-store-error";
import { createSessionId, isValidSessionId } from "./create-session-id";

/**
 * The header of a new session at the current version. `parentSession` is omitted when undefined.
 *
 * @throws SessionStoreError `SESSION_ID_INVALID` for a custom id with other characters than letters,
 *   digits, `.`, `_` and `-` (or not starting and ending with a letter or digit).
 */
export function createSessionHeader(options: {
  cwd?: string;
  sessionId?: string;
  parentSession?: string;
  now?: () => Date;
}): SessionHeader {
  const now = options.now?.() ?? new Date();
  if (options.sessionId !== undefined && !isValidSessionId(options.sessionId)) {
    throw new SessionStoreError(
      "SESSION_ID_INVALID",
      `Session id ${JSON.stringify(options.sessionId)} must be letters, digits, '.', '_' or '-', starting and ending with a letter or digit`,
    );
  }
  return {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: options.sessionId ?? createSessionId(now.getTime()),
    timestamp: now.toISOString(),
    cwd: options.cwd ?? process.cwd(),
    ...(options.parentSession !== undefined ? { parentSession: options.parentSession } : {}),
  };
}
