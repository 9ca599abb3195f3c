import { dirname, join } from "node:path";
import type { SessionHeader } from "../session-entry";
import { SessionStoreError } from "../session-store-error";
import type { NewSessionTarget, SessionStoreOptions } from "../session-store-options";
import type { SessionStorage } from "../storage/session-storage";
import { createSessionHeader } from "./create-session-header";

/** The file name of a new session: `<ISO time with : and . as ->_<id>.jsonl` (pi's naming). */
export function sessionFileName(header: SessionHeader): string {
  return `${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`;
}

/**
 * Header and backend of a session made from another one (fork, clone, copy): the header names the
 * source file as `parentSession`; the backend is `target.storage`, else `createStorage` at
 * `target.path`, else at `<target.dir or the source's directory>/<timestamp>_<id>.jsonl` (in memory
 * when the source has no file).
 *
 * @throws SessionStoreError `SESSION_TARGET_INVALID` when no backend can be made.
 */
export function resolveSessionTarget(
  source: { path: string | undefined; header: SessionHeader; options: SessionStoreOptions },
  target: NewSessionTarget,
): { header: SessionHeader; storage: SessionStorage } {
  const header = createSessionHeader({
    cwd: target.cwd ?? source.header.cwd,
    ...(target.sessionId !== undefined ? { sessionId: target.sessionId } : {}),
    ...(source.path !== undefined ? { parentSession: source.path } : {}),
    ...(source.options.now ? { now: source.options.now } : {}),
  });
  if (target.storage) return { header, storage: target.storage };
  const directory = target.dir ?? (source.path !== undefined ? dirname(source.path) : undefined);
  const path =
    target.path ?? (directory !== undefined ? join(directory, sessionFileName(header)) : undefined);
  const create = source.options.createStorage;
  if (!create) {
    throw new SessionStoreError(
      "SESSION_TARGET_INVALID",
      "No backend for the new session: pass `storage`, or open the store with a `createStorage` option",
      { sessionFile: source.path },
    );
  }
  return { header, storage: create(path) };
}
