import {
  createJsonlStorage,
  type SessionIssue,
  SessionStorageError,
  SessionStore,
  SessionStoreError,
} from "@arbor/session-store";
import type { PostgresSessionStorage } from "@arbor/session-store/postgres";
import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import { formatInteger } from "../format/format-number";
import { safeJsonStringify } from "../format/safe-json-stringify";
import { isDatabaseLocation } from "../sessions/is-database-location";
import { assertSessionFile } from "../sessions/open-session-file";
import type { CheckInput } from "../usage/check-usage";
import { findMissingParents } from "./find-missing-parents";

/** One problem `arbor check` found. */
export interface CheckProblem {
  /** 1-based line of the file, when known. */
  line: number | null;
  /**
   * The store's issue code (`SESSION_LINE_CORRUPT`, `SESSION_TAIL_TORN`, `SESSION_ENTRY_INVALID`,
   * `SESSION_HEADER_INVALID`), `CLI_SESSION_EMPTY`, or `SESSION_PARENT_MISSING`: the entry's
   * `parentId` names no entry of the session (or the entry itself), so it starts a tree of its own.
   */
  code: string;
  /** What is wrong (without the `file:line:` prefix, which the text form adds). */
  message: string;
  /** The entry's id, when known. */
  entryId: string | null;
}

/** The `arbor check --json` document. */
export interface CheckReport {
  /** The session file, or the database location, as given. */
  file: string;
  /** True when no problem was found. */
  ok: boolean;
  /** Lines read and checked: every line of the session (blank lines included). */
  linesChecked: number;
  problems: CheckProblem[];
}

function problemOf(
  file: string,
  issue: SessionIssue | SessionStoreError | SessionStorageError,
): CheckProblem {
  const line = ("line" in issue ? issue.line : undefined) ?? null;
  // The store names the file as it opened it (an absolute path), the user may have given it relative.
  const named = "sessionFile" in issue ? issue.sessionFile : "path" in issue ? issue.path : undefined;
  const at = line === null ? ": " : `:${line}: `;
  const prefix = [file, named].find((name) => name !== undefined && issue.message.startsWith(name + at));
  const message = prefix === undefined ? issue.message : issue.message.slice(prefix.length + at.length);
  return {
    line,
    code: issue.code,
    message,
    entryId: ("entryId" in issue ? issue.entryId : undefined) ?? null,
  };
}

/**
 * Every problem of an opened session, by line: the store's issues, then the entries whose parent is
 * missing (not those whose parent the issues already name as damaged or invalid).
 */
function sessionProblems(file: string, store: SessionStore): CheckProblem[] {
  const problems = store.issues.map((issue) => problemOf(file, issue));
  const reported = new Set(
    problems.flatMap((problem) => (problem.entryId === null ? [] : [problem.entryId])),
  );
  // A damaged line whose id could not be read may be the missing parent: say so.
  const unnamed = problems.some(
    (problem) => problem.entryId === null && problem.code !== "SESSION_TAIL_TORN",
  );
  for (const { entryId, parentId, line } of findMissingParents(store, reported)) {
    const message =
      parentId === entryId
        ? `entry ${entryId} names itself as its parent: it is read as the root of a tree of its own.`
        : `entry ${entryId} names the parent ${parentId}, which no entry of the session has: the entry is read as the root of a tree of its own (as pi reads it), cut off from what came before it.${unnamed ? ` ${parentId} may be the entry of a damaged line listed here.` : ""}`;
    problems.push({ line, code: "SESSION_PARENT_MISSING", message, entryId });
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

/** The report of a session whose first line is no valid header (`error`), else `undefined`. */
function headerProblemReport(file: string, error: unknown): CheckReport | undefined {
  if (
    !(SessionStoreError.isInstance(error) || SessionStorageError.isInstance(error)) ||
    error.code !== "SESSION_HEADER_INVALID"
  ) {
    return undefined;
  }
  // The store names line 1; the storage (no line is a header at all) names none: the first line.
  const problem = problemOf(file, error);
  return { file, ok: false, linesChecked: 1, problems: [{ ...problem, line: problem.line ?? 1 }] };
}

/** Opens and checks every line; a file that cannot be a session at all is one problem at line 1. */
function checkFile(file: string): CheckReport {
  try {
    assertSessionFile(file);
    const storage = createJsonlStorage(file, { readOnly: true });
    let store: SessionStore;
    try {
      store = new SessionStore(storage, { validate: "full" });
    } catch (error) {
      storage.close();
      throw error;
    }
    try {
      const problems = sessionProblems(file, store);
      // Every complete line (blank ones included), and a torn last line.
      const torn = problems.filter((problem) => problem.code === "SESSION_TAIL_TORN").length;
      const linesChecked = storage.stats().linesScanned + torn;
      return { file, ok: problems.length === 0, linesChecked, problems };
    } finally {
      store.close();
    }
  } catch (error) {
    const headerReport = headerProblemReport(file, error);
    if (headerReport !== undefined) return headerReport;
    if (CliError.isInstance(error) && error.code === "CLI_SESSION_EMPTY") {
      const problem = { line: null, code: error.code, message: error.message, entryId: null };
      return { file, ok: false, linesChecked: 0, problems: [problem] };
    }
    throw error;
  }
}

/**
 * Checks every line of the session at a database location, as {@link checkFile} checks a file: read
 * without the lock, every entry read and validated (the lines come with the one query).
 */
async function checkDatabaseSession(location: string): Promise<CheckReport> {
  const { openDatabaseSession } = await import("../sessions/open-database-session");
  try {
    const { store } = await openDatabaseSession(location, { mode: "read", validate: "full" });
    try {
      const problems = sessionProblems(location, store);
      const { lineCount } = store.storage as PostgresSessionStorage;
      return { file: location, ok: problems.length === 0, linesChecked: lineCount, problems };
    } finally {
      store.close();
    }
  } catch (error) {
    const headerReport = headerProblemReport(location, error);
    if (headerReport !== undefined) return headerReport;
    throw error;
  }
}

/**
 * `arbor check <session>`: reads every line of the session (a file, or a database location
 * `postgresql://host/db#<session-id>`) and checks it (JSON, the header, each entry against its type's
 * structure), read-only (no lock, nothing written anywhere). Prints one line per problem,
 * `file:line: CODE: message`, then a summary; `--json` prints one {@link CheckReport}. Returns 0 when
 * the session is clean, 1 when a problem was found. Throws user errors (missing file, no such
 * database session) for `reportError`.
 */
export async function runCheckCommand(command: CheckInput, io: CliIo): Promise<number> {
  const report = isDatabaseLocation(command.file)
    ? await checkDatabaseSession(command.file)
    : checkFile(command.file);
  if (command.json) {
    io.stdout.write(`${safeJsonStringify(report)}\n`);
    return report.ok ? 0 : 1;
  }
  const lines = report.problems.map(
    (problem) =>
      `${command.file}${problem.line === null ? "" : `:${problem.line}`}: ${problem.code}: ${problem.message}`,
  );
  const count = report.problems.length;
  const checked = `${formatInteger(report.linesChecked)} line${report.linesChecked === 1 ? "" : "s"}`;
  lines.push(
    count === 0
      ? `${command.file}: ok, ${checked} checked, no problems`
      : `${command.file}: ${formatInteger(count)} problem${count === 1 ? "" : "s"} in ${checked} checked`,
  );
  io.stdout.write(`${lines.join("\n")}\n`);
  return count === 0 ? 0 : 1;
}
