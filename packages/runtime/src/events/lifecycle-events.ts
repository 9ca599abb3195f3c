/**
 * Why a session started (pi's `session_start` reasons). Arbor itself uses `startup` (the default of
 * `createAgentSession`) and `fork` (the session `fork()` returns); an application that replaces one
 * session by another passes `new`, `resume` or `reload` to `createAgentSession` itself.
 */
export type SessionStartReason = "startup" | "reload" | "new" | "resume" | "fork";

/**
 * Why a session is shutting down (pi's `session_shutdown` reasons), as passed to
 * `session.dispose(reason)`. Default `quit`.
 */
export type SessionShutdownReason = "quit" | "reload" | "new" | "resume" | "fork";

/**
 * pi's `session_start`: the session's extensions are installed and the session is ready. Emitted
 * once per session, by `createAgentSession`, before it resolves; handlers run under the session lock,
 * so their `api.session` appends apply at once. Return values are ignored.
 *
 * Difference from pi: pi tears its runtime down on fork and starts a new one in its place
 * (`session_shutdown {reason: "fork"}` then `session_start {reason: "fork"}`). Arbor's `fork()`
 * returns a new session and leaves the original one usable: only the new session gets
 * `session_start {reason: "fork", previousSessionFile}`; the original gets no `session_shutdown`.
 *
 * Listeners of `session.subscribe` do not receive it (they subscribe after the session exists).
 */
export interface SessionStartEvent {
  type: "session_start";
  reason: SessionStartReason;
  /**
   * The session file the application came from (for `fork`: the file forked from). Absent when
   * there is none (a startup, or an in-memory session).
   */
  previousSessionFile?: string;
}

/**
 * pi's `session_shutdown`: `session.dispose(reason, targetSessionFile)` is about to uninstall the
 * extensions. Emitted once, after the running operation was aborted and has settled, under the
 * session lock (handlers can still append through `api.session`, for example to save state). Return
 * values are ignored. Not emitted by `fork()` (see {@link SessionStartEvent}). Extensions only:
 * listeners of `session.subscribe` do not receive it.
 */
export interface SessionShutdownEvent {
  type: "session_shutdown";
  reason: SessionShutdownReason;
  /** The session file the application goes to next, when the caller said so. */
  targetSessionFile?: string;
}

/**
 * The session's lifecycle notifications, for extensions only (not in `AgentSessionEvent`):
 * listeners cannot see a start (they subscribe later) and are dropped at shutdown.
 */
export interface SessionLifecycleHooks {
  session_start: { event: SessionStartEvent; result: undefined };
  session_shutdown: { event: SessionShutdownEvent; result: undefined };
}
