import fs from "node:fs";
import path from "node:path";
import {
  createInMemorySessionStore,
  createSessionStore,
  openSessionStore,
  type SessionIssue,
  type SessionStore,
} from "@arbor/session-store";
import { CliError } from "../cli-error";
import { listSessions } from "./list-sessions";
import { resolveSessionArgument } from "./resolve-session-argument";
import { resolveSessionIndexDir, resolveSessionsDir } from "./session-paths";

/** The topmost folder `openAgentSessionStore` created for a store, removed again if left empty. */
const createdFolders = new WeakMap<SessionStore, { dir: string; top: string }>();

function withCreatedFolder(store: SessionStore, dir: string, top: string | undefined): SessionStore {
  if (top !== undefined) createdFolders.set(store, { dir, top });
  return store;
}

/**
 * Closes a store opened by {@link openAgentSessionStore}, then removes the folders it created for
 * it when they are still empty: a run that ended before its conversation started (a missing key,
 * an unknown model, quitting at once) leaves no empty `sessions/<slug>/` folder behind. A folder
 * holding anything (another session, the session file) is kept. Idempotent like `close`.
 */
export function closeAgentSessionStore(store: SessionStore): void {
  store.close();
  const created = createdFolders.get(store);
  if (created === undefined) return;
  createdFolders.delete(store);
  for (let dir = created.dir; ; dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      return; // not empty (or gone): keep it and everything above
    }
    if (dir === created.top || path.dirname(dir) === dir) return;
  }
}

/** Which session the agent modes use. */
export type SessionChoice =
  | { kind: "new" }
  | { kind: "path"; path: string }
  | { kind: "continue" }
  | { kind: "memory" };

/** Where sessions live. */
export interface SessionLocation {
  arborHome: string;
  cwd: string;
  /** Called for every problem the store finds in the session file, at open and later. */
  onIssue?: (issue: SessionIssue) => void;
}

/**
 * Opens or creates the session of an agent mode:
 * - `new`: a new file in `<arborHome>/sessions/<slug of cwd>/`, written once the conversation starts;
 * - `path`: that file (created there if missing), or the session whose short id or id prefix it is
 *   (see `resolveSessionArgument`);
 * - `continue`: the most recently modified session of the folder, or a new one when there is none;
 * - `memory`: nothing is written.
 * The store holds the session's writer lock until closed (close it with {@link closeAgentSessionStore},
 * which also removes the folders made for a session that was never written); the sidecar index of large sessions goes to
 * the cache under `arborHome` (see `resolveSessionIndexDir`), never beside the session.
 * @throws session-store errors (locked, invalid header) with their own messages.
 */
export function openAgentSessionStore(choice: SessionChoice, location: SessionLocation): SessionStore {
  const dir = resolveSessionsDir(location.arborHome, location.cwd);
  const common = {
    cwd: location.cwd,
    deferFileUntilConversation: true,
    storage: { sidecarIndex: { dir: resolveSessionIndexDir(location.arborHome) } },
    ...(location.onIssue ? { onIssue: location.onIssue } : {}),
  } as const;
  switch (choice.kind) {
    case "memory":
      return createInMemorySessionStore({ cwd: location.cwd });
    case "path": {
      const file = path.resolve(
        location.cwd,
        resolveSessionArgument(choice.path, {
          arborHome: location.arborHome,
          cwd: location.cwd,
          mayCreate: true,
        }),
      );
      if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
        throw new CliError("CLI_USAGE", `--session ${choice.path}: is a folder, expected a session file`);
      }
      fs.mkdirSync(path.dirname(file), { recursive: true });
      return openSessionStore(file, common);
    }
    case "continue": {
      const [recent] = listSessions(dir);
      if (recent) return openSessionStore(recent.path, common);
      const top = fs.mkdirSync(dir, { recursive: true });
      return withCreatedFolder(createSessionStore({ ...common, dir }), dir, top);
    }
    case "new": {
      const top = fs.mkdirSync(dir, { recursive: true });
      return withCreatedFolder(createSessionStore({ ...common, dir }), dir, top);
    }
  }
}
