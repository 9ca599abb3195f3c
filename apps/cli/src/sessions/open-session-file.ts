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
 * Opens a session file for the offline commands. `readOnly` opens without the writer lock and never
 * modifies the file or creates anything beside it (inspect, tree); otherwise the lock is taken
 * (compact). Large sessions keep their index in the cache under `arborHome`.
 *
 * @throws CliError `CLI_FILE_NOT_FOUND` (missing file or a folder), `CLI_SESSION_EMPTY` (an empty
 *   file: no header, so no session id to report), `CLI_SESSION_CORRUPT` (a corrupt or
 *   torn line: the message names the file and the first bad line); session-store errors (invalid
 *   header, locked) pass through with their own message.
 */
export function openSessionFile(
  file: string,
  options: { readOnly: boolean; arborHome: string },
): { store: SessionStore; rawHeader: RawSessionHeader } {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) throw new CliError("CLI_FILE_NOT_FOUND", `${file}: no such session file`);
  if (!stat.isFile()) throw new CliError("CLI_FILE_NOT_FOUND", `${file}: not a file`);
  if (stat.size === 0) {
    throw new CliError(
      "CLI_SESSION_EMPTY",
      `${file}: the file is empty: no session header, so no session yet (\`arbor --session ${file}\` would start one there)`,
    );
  }
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
      sidecarIndex: { dir: resolveSessionIndexDir(options.arborHome) },
    },
    validate: "full",
  });
  const problems = store.issues;
  if (problems.length > 0) {
    store.close();
    const [first] = problems;
    const more =
      problems.length > 1
        ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})`
        : "";
    throw new CliError("CLI_SESSION_CORRUPT", `${first?.message}${more}`);
  }
  return { store, rawHeader };
}
