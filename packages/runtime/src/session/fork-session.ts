import type { SessionStore } from "@arbor/session-store";

/** Where a forked session goes (the store's `NewSessionTarget`). */
export type ForkTarget = NonNullable<Parameters<SessionStore["forkSession"]>[1]>;

import type { SessionCore } from "../internal/session-core";
import { RuntimeError } from "../runtime-error";
import type { AgentSession } from "./agent-session";

/** Options of `session.fork`. */
export interface ForkOptions {
  /** Entry to fork from. Default: the current leaf (a clone of the active branch). */
  entryId?: string;
  /**
   * `"before"` (default when `entryId` is given): the entry must be a user message; the new session
   * ends just before it and its text comes back as `selectedText` (to edit and resend). `"at"`
   * (default without `entryId`): the new session ends with the entry.
   */
  position?: "before" | "at";
  /** Where the new session file goes (default: next to this one, or in memory for in-memory sessions). */
  target?: ForkTarget;
}

/**
 * What a fork produced. A fork an extension cancels (`session_before_fork`) does not resolve: it
 * rejects with `RuntimeError` `FORK_CANCELLED` (as `compact()` does with `COMPACTION_CANCELLED`),
 * because there is no new session to return; this session stays as it was.
 */
export interface ForkResult {
  /** The new session (same model, provider, tools, settings and extensions). */
  session: AgentSession;
  /** Its store (open; close it when done with the session). */
  store: SessionStore;
  /** With `position: "before"`: the text of the user message forked before. */
  selectedText?: string;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => (block?.type === "text" ? String(block.text) : "")).join("");
}

/**
 * pi's fork and clone (see packages/runtime/docs/reference.md#api): once the arguments are valid, `session_before_fork {entryId, position}`
 * may cancel; then the path from the root to the chosen point is copied into a new session (labels
 * re-appended, `parentSession` pointing here) and `createFrom` starts a session over it (which emits
 * `session_start {reason: "fork"}` there). This session is not changed and gets no
 * `session_shutdown` (pi replaces its runtime on fork; Arbor keeps both). The caller holds the
 * session lock.
 *
 * @throws RuntimeError `ENTRY_NOT_FOUND` for an unknown id, `INVALID_ARGUMENT` for an empty session,
 * a `"before"` fork of a non-user entry, or a fork before the first entry; `FORK_CANCELLED` when an
 * extension cancelled or `signal` aborted during `session_before_fork` (nothing created); store
 * errors as thrown.
 */
export async function forkSession(
  core: SessionCore,
  options: ForkOptions,
  signal: AbortSignal,
  createFrom: (store: SessionStore) => Promise<AgentSession>,
): Promise<ForkResult> {
  const entryId = options.entryId ?? core.store.leafId;
  if (entryId === null) throw new RuntimeError("INVALID_ARGUMENT", "Cannot fork an empty session");
  const entry = core.store.getEntry(entryId);
  if (entry === undefined) {
    throw new RuntimeError("ENTRY_NOT_FOUND", `Cannot fork: entry ${entryId} is not in the session`, {
      entryId,
    });
  }
  const position = options.position ?? (options.entryId === undefined ? "at" : "before");
  let leafId: string | null = entryId;
  let selectedText: string | undefined;
  if (position === "before") {
    if (entry.type !== "message" || entry.message.role !== "user") {
      throw new RuntimeError(
        "INVALID_ARGUMENT",
        `Cannot fork before entry ${entryId}: it is a ${entry.type === "message" ? `${entry.message.role} message` : entry.type}, not a user message`,
        { entryId },
      );
    }
    leafId = entry.parentId;
    selectedText = textOf(entry.message.content);
  }
  if (leafId === null) {
    throw new RuntimeError("INVALID_ARGUMENT", `Cannot fork before entry ${entryId}: it is the first entry`, {
      entryId,
    });
  }
  const hook = await core.bus.intercept(
    "session_before_fork",
    { type: "session_before_fork", entryId, position },
    { signal },
  );
  if (hook.cancelled || hook.aborted || signal.aborted) {
    const why = hook.cancelled
      ? `an extension${hook.cancelledBy === undefined ? "" : ` (${hook.cancelledBy})`} cancelled it in session_before_fork`
      : "it was aborted";
    throw new RuntimeError("FORK_CANCELLED", `Fork from entry ${entryId} did not happen: ${why}`, {
      entryId,
    });
  }
  const store = core.store.forkSession(leafId, options.target ?? {});
  try {
    const session = await createFrom(store);
    return { session, store, ...(selectedText === undefined ? {} : { selectedText }) };
  } catch (error) {
    store.close();
    throw error;
  }
}
