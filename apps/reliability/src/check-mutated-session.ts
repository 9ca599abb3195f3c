import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { ArborError } from "@arbor/providers";
import {
  createInMemorySessionStore,
  createJsonlStorage,
  createMemoryStorage,
  openSessionStore,
  type SessionStore,
} from "@arbor/session-store";

/** One mutated session to load. */
export interface MutatedSession {
  /** The file content: lines joined with `\n` (the last newline may be missing). */
  content: Buffer;
  /** For each line of `content` (0-based): the original valid line it is byte-equal to, if any. */
  untouched: ReadonlyMap<number, string>;
  /** Whether the header line was mutated (the load may then fail with a typed error). */
  headerMutated: boolean;
}

/** What loading one mutated session did. */
export interface MutatedSessionOutcome {
  problems: string[];
  /** Typed error codes thrown, by stage (`load`, `store`, `read`, `projection`...). */
  typedErrors: string[];
  /** Issue codes reported. */
  issues: string[];
  /** Untouched valid entries checked (each was returned intact, unless `problems` says otherwise). */
  validEntriesChecked: number;
}

const ISSUE_CODES = new Set(["SESSION_LINE_CORRUPT", "SESSION_TAIL_TORN", "SESSION_ENTRY_INVALID"]);

/** Runs `action`; a typed Arbor error is recorded, anything else thrown is a problem. */
function guarded<T>(stage: string, outcome: MutatedSessionOutcome, action: () => T): T | undefined {
  try {
    return action();
  } catch (error) {
    if (ArborError.isInstance(error)) outcome.typedErrors.push(`${stage}:${error.code}`);
    else
      outcome.problems.push(
        `${stage} threw an untyped ${String((error as Error)?.name)}: ${String((error as Error)?.message).slice(0, 200)}`,
      );
    return undefined;
  }
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

/**
 * Loads a mutated session through the storage backend (`memory`: from text; `file`: the JSONL
 * backend on a real file at `path`) and through the session store, and checks: nothing but typed
 * Arbor errors is thrown; a session whose header is intact loads; every non-blank line is either
 * the header, an entry record or a reported issue (nothing silently dropped); every untouched valid
 * line comes back as an entry equal to the original, at the storage level and, when no later line
 * claims its id, from `store.getEntry`; for files, loading changes nothing but a torn tail
 * (quarantined byte for byte) or a missing final newline.
 */
export function checkMutatedSession(
  session: MutatedSession,
  backend: "memory" | "file",
  path?: string,
): MutatedSessionOutcome {
  const outcome: MutatedSessionOutcome = {
    problems: [],
    typedErrors: [],
    issues: [],
    validEntriesChecked: 0,
  };
  const text = session.content.toString("utf8");
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  if (backend === "file") writeFileSync(path as string, session.content);
  const storage =
    backend === "memory"
      ? createMemoryStorage({ content: text })
      : createJsonlStorage(path as string, { durability: "never" });
  const loaded = guarded("load", outcome, () => storage.load());
  const lastIdLine = new Map<string, number>();
  if (!loaded) {
    if (!session.headerMutated) outcome.problems.push("load failed although the header is intact");
  } else {
    const lineToRecord = new Map<number, number>();
    loaded.records.forEach((record, index) => {
      const line = storage.lineOf?.(index);
      if (line === undefined) outcome.problems.push(`record ${index} has no line`);
      else lineToRecord.set(line, index);
      if (record.id !== undefined && line !== undefined && record.type !== "session")
        lastIdLine.set(record.id, line);
    });
    const issueLines = new Set<number>();
    for (const issue of loaded.issues) {
      outcome.issues.push(issue.code);
      issueLines.add(issue.line);
      if (!ISSUE_CODES.has(issue.code)) outcome.problems.push(`unknown issue code ${issue.code}`);
      if (!issue.message.includes(String(issue.line)))
        outcome.problems.push(`issue message does not name line ${issue.line}`);
      if (backend === "file" && !issue.message.includes(path as string))
        outcome.problems.push("issue message does not name the file");
    }
    lines.forEach((line, i) => {
      const lineNo = i + 1;
      if (lineNo === 1 || isBlank(line)) return;
      const index = lineToRecord.get(lineNo);
      if (index === undefined && !issueLines.has(lineNo))
        outcome.problems.push(`line ${lineNo} silently dropped`);
      const original = session.untouched.get(i);
      if (original === undefined) return;
      outcome.validEntriesChecked++;
      if (index === undefined) {
        outcome.problems.push(`untouched line ${lineNo} is not an entry`);
        return;
      }
      const entry = guarded("read-valid", outcome, () => storage.readEntry(index));
      if (!isDeepStrictEqual(entry, JSON.parse(original)))
        outcome.problems.push(`untouched line ${lineNo} read back changed`);
    });
    for (let index = 0; index < loaded.records.length; index++)
      guarded("read", outcome, () => storage.readEntry(index));
  }
  storage.close();
  if (backend === "file") checkFileAfterLoad(session.content, path as string, loaded?.issues ?? [], outcome);
  checkStore(session, backend, text, path, lastIdLine, outcome);
  return outcome;
}

function checkFileAfterLoad(
  before: Buffer,
  path: string,
  issues: readonly { code: string; quarantinePath?: string }[],
  outcome: MutatedSessionOutcome,
): void {
  const after = readFileSync(path);
  if (after.equals(before)) return;
  const cut = before.lastIndexOf(0x0a) + 1;
  const torn = issues.find((i) => i.code === "SESSION_TAIL_TORN");
  if (torn?.quarantinePath && existsSync(torn.quarantinePath)) {
    if (!after.equals(before.subarray(0, cut))) outcome.problems.push("torn tail cut at the wrong place");
    if (!readFileSync(torn.quarantinePath).equals(before.subarray(cut)))
      outcome.problems.push("quarantine file does not hold the torn bytes");
    return;
  }
  if (after.equals(Buffer.concat([before, Buffer.from("\n")]))) return;
  outcome.problems.push("loading changed the file beyond a torn tail or a final newline");
}

function checkStore(
  session: MutatedSession,
  backend: "memory" | "file",
  text: string,
  path: string | undefined,
  lastIdLine: ReadonlyMap<string, number>,
  outcome: MutatedSessionOutcome,
): void {
  const store = guarded<SessionStore>("store", outcome, () =>
    backend === "memory"
      ? createInMemorySessionStore({ content: text })
      : openSessionStore(path as string, { storage: { durability: "never" } }),
  );
  if (!store) {
    if (!session.headerMutated) outcome.problems.push("store failed to open although the header is intact");
    return;
  }
  guarded("entries", outcome, () => store.getEntries());
  guarded("tree", outcome, () => store.getTree());
  guarded("projection", outcome, () => store.getProjection());
  guarded("branch", outcome, () => store.getBranch());
  // A damaged header can change the session's version (no `version` means 1), and migrating a
  // version-1 session gives every entry a new id: compare entries only under an intact header.
  for (const [i, original] of session.headerMutated ? [] : session.untouched) {
    const entry = JSON.parse(original) as { id?: unknown };
    if (typeof entry.id !== "string" || lastIdLine.get(entry.id) !== i + 1) continue;
    const found = guarded("get-valid", outcome, () => store.getEntry(entry.id as string));
    if (!isDeepStrictEqual(found, JSON.parse(original)))
      outcome.problems.push(`store lost untouched entry ${entry.id}`);
  }
  store.close();
}
