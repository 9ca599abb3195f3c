import fs from "node:fs";
import { openSessionStore, type SessionStore } from "@arbor/session-store";
import { CliError } from "../cli-error";
import { resolveSessionIndexDir } from "./session-paths";

/** The header fields as they are written in the file (before any migration). */
export interface RawSessionHeader {
  id: unknown;
  version: unknown;
  cwd: unknown;
}

function readFirstLine(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer
      .subarray(0, read)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
    const end = text.indexOf("\n");
    return end === -1 ? text : text.slice(0, end);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Checks that `file` can be opened as a session by an offline command: it exists, is a file and is
 * not empty.
 *
 * @throws CliError `CLI_FILE_NOT_FOUND` (missing file or a folder), `CLI_SESSION_EMPTY` (an empty
 *   file: no header, so no session id to report).
 */
export function assertSessionFile(file: string): void {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) throw new CliError("CLI_FILE_NOT_FOUND", `${file}: no such session file`);
  if (!stat.isFile()) throw new CliError("CLI_FILE_NOT_FOUND", `${file}: not a file`);
  if (stat.size === 0) {
    throw new CliError(
      "CLI_SESSION_EMPTY",
      `${file}: the file is empty: no session header, so no session yet (\`arbor --session ${file}\` would start one there)`,
    );
  }
}

/**
 * Refuses a session in which problems were found so far (corrupt or torn lines, invalid entries):
 * closes the store and throws `CLI_SESSION_CORRUPT` naming the file and line of the problem found
 * first in file order, and how many more there are. Does nothing when `store.issues` is empty.
 */
export function refuseDamagedSession(store: SessionStore): void {
  if (store.issues.length === 0) return;
  // Found in the order entries were read (a lazy read starts at the leaf): name the first in the file.
  const problems = [...store.issues].sort(
    (a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER),
  );
  store.close();
  const [first] = problems;
  const more =
    problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : "";
  throw new CliError(
    "CLI_SESSION_CORRUPT",
    `${first?.message}${more} The offline commands refuse a damaged session: \`arbor check\` lists every problem by line, and the agent (\`arbor --session\`) opens the session without the damaged lines.`,
  );
}

/**
 * Opens a session file for the offline commands. `readOnly` opens without the writer lock and never
 * modifies the file or creates anything beside it (inspect, tree); otherwise the lock is taken
 * (compact). Large sessions keep their index in the cache under `arborHome`. With `validate: "full"`
 * (the default) every entry is read and checked at open; with `"lazy"` only what the command reads
 * later is (call {@link refuseDamagedSession} again after reading). Either way the problems found at
 * open (corrupt lines the open scan sees, a torn last line, invalid entries when full) refuse the file.
 *
 * @throws CliError `CLI_FILE_NOT_FOUND` (missing file or a folder), `CLI_SESSION_EMPTY` (an empty
 *   file: no header, so no session id to report), `CLI_SESSION_CORRUPT` (a corrupt or
 *   torn line: the message names the file and the first bad line); session-store errors (invalid
 *   header, locked) pass through with their own message.
 */
export function openSessionFile(
  file: string,
  options: { readOnly: boolean; arborHome: string; validate?: "full" | "lazy" },
): { store: SessionStore; rawHeader: RawSessionHeader } {
  assertSessionFile(file);
  let rawHeader: RawSessionHeader = { id: undefined, version: undefined, cwd: undefined };
  try {
    const parsed = JSON.parse(readFirstLine(file));
    if (parsed && typeof parsed === "object")
      rawHeader = { id: parsed.id, version: parsed.version, cwd: parsed.cwd };
  } catch {
    // The store reports an invalid header with its own error below.
  }
  const store = openSessionStore(file, {
    storage: {
      readOnly: options.readOnly,
      // A file inspected once costs no index write; one opened again gets its index (read-only opens).
      sidecarIndex: { dir: resolveSessionIndexDir(options.arborHome), writeOnSecondOpen: true },
    },
    validate: options.validate ?? "full",
  });
  refuseDamagedSession(store);
  return { store, rawHeader };
}
