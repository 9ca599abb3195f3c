import fs from "node:fs";
import path from "node:path";
import { CliError } from "../cli-error";
import { findSessionFiles } from "./find-session-files";
import { SHORT_SESSION_ID_LENGTH, shortSessionId } from "./short-session-id";

const ID_LIKE = /^[0-9a-f][0-9a-f-]{3,}$/i;
const HEAD_BYTES = 64 * 1024;

function headerId(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = fs.readSync(fd, buffer, 0, HEAD_BYTES, 0);
    const text = buffer
      .subarray(0, read)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
    const header = JSON.parse(text.slice(0, text.indexOf("\n") === -1 ? undefined : text.indexOf("\n")));
    return header?.type === "session" && typeof header.id === "string" ? header.id : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * True when `reference` names the session with header id `id`: a prefix of its full id, or a prefix
 * of its short id (the last 8 digits, or as many as `reference` has: a longer short id shown when
 * two sessions share their last 8). Case and dashes are ignored.
 */
function matches(reference: string, id: string): boolean {
  const wanted = reference.toLowerCase().replace(/-/g, "");
  const full = id.toLowerCase().replace(/-/g, "");
  return (
    full.startsWith(wanted) ||
    full.slice(-Math.max(SHORT_SESSION_ID_LENGTH, wanted.length)).startsWith(wanted)
  );
}

/** Where {@link resolveSessionArgument} looks. */
export interface SessionArgumentContext {
  arborHome: string;
  cwd: string;
  /**
   * True where a missing file is created (`--session`): an unmatched argument is returned as
   * written. False (inspect, tree, export): an unmatched id-like argument is an error.
   */
  mayCreate: boolean;
}

/**
 * Turns what the user wrote where a session is expected (`arbor inspect X`, `tree X`, `--session X`,
 * `export X`) into a file path:
 * - an existing path (relative to `cwd`), or anything that looks like a path (contains `/` or ends
 *   in `.jsonl`), is returned as written, resolved against `cwd`;
 * - otherwise, when it looks like an id (4 or more hex digits and dashes), it is matched against the
 *   sessions under `$ARBOR_HOME/sessions/` (this folder's first, then every folder): a session
 *   matches when the argument is a prefix of its short id (`arbor sessions` shows it) or of its
 *   full id. One match in this folder wins; else one match anywhere; several are an error;
 * - no match: returned as written with `mayCreate` (`--session` creates the file); without it an
 *   error.
 * Reads only folder listings and the first line of session files.
 * @throws CliError `CLI_USAGE` when an id matches several sessions (naming them);
 *   `CLI_FILE_NOT_FOUND` when an id-like argument matches no file and no session (without `mayCreate`).
 */
export function resolveSessionArgument(argument: string, context: SessionArgumentContext): string {
  const asPath = path.resolve(context.cwd, argument);
  if (
    fs.existsSync(asPath) ||
    argument.includes("/") ||
    argument.endsWith(".jsonl") ||
    !ID_LIKE.test(argument)
  ) {
    return argument;
  }
  for (const all of [false, true]) {
    const found = findSessionFiles(context.arborHome, { cwd: context.cwd, all }).filter((file) => {
      const id = headerId(file);
      return id !== undefined && matches(argument, id);
    });
    if (found.length === 1) return found[0] as string;
    if (found.length > 1) {
      const shown = found.slice(0, 5).map((file) => `${shortSessionId(headerId(file) ?? "")} ${file}`);
      throw new CliError(
        "CLI_USAGE",
        `session id "${argument}" matches ${found.length} sessions (${shown.join("; ")}${found.length > 5 ? "; …" : ""}); give more of it (arbor sessions${all ? " --all" : ""} lists them)`,
        2,
      );
    }
  }
  if (context.mayCreate) return argument;
  throw new CliError(
    "CLI_FILE_NOT_FOUND",
    `${argument}: no such session file, and no session under ${path.join(context.arborHome, "sessions")} has this id (arbor sessions --all lists them)`,
  );
}
