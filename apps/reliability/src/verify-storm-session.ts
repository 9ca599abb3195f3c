import { existsSync, readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { type DurabilityMode, openSessionStore } from "@arbor/session-store";
import { stormMessage, stormSeqOf } from "../workers/storm-message.mjs";

/** What the parent knows before it reopens a killed storm's session. */
export interface StormExpectation {
  durability: DurabilityMode;
  /** Storm entries whose append returned: seq → entry id (from the acknowledgement file). */
  acked: ReadonlyMap<number, string>;
  /** Ids of the resume markers the parent appended after earlier kills. */
  resumeIds: ReadonlySet<string>;
}

/** What one reopen found. `problems` is empty when every durability promise held. */
export interface StormVerification {
  problems: string[];
  /** Storm entries in the file (acknowledged or not). */
  stormEntries: number;
  /** Highest storm seq in the file, -1 when none. */
  maxSeq: number;
  /** Acknowledged entries missing or changed (must be 0). */
  lost: number;
  /** The file ended with an incomplete line that was set aside. */
  quarantined: boolean;
  /** The file ended with a complete line without its newline (kept, newline added). */
  repaired: boolean;
  /** Id of the resume marker appended after the checks. */
  resumeId: string | undefined;
}

const RESUME_TYPE = "storm-resume";

/** Reads the complete `<seq> <id>` lines of an acknowledgement file (a torn last line is ignored). */
export function readAcks(ackFile: string, into: Map<number, string>): void {
  if (!existsSync(ackFile)) return;
  const text = readFileSync(ackFile, "utf8");
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  for (const line of complete.split("\n")) {
    if (line === "") continue;
    const [seq, id] = line.split(" ");
    into.set(Number(seq), String(id));
  }
}

function tornTail(raw: Buffer): { tail: Buffer; parses: boolean } | undefined {
  if (raw.length === 0 || raw[raw.length - 1] === 0x0a) return undefined;
  const tail = raw.subarray(raw.lastIndexOf(0x0a) + 1);
  try {
    JSON.parse(tail.toString("utf8"));
    return { tail, parses: true };
  } catch {
    return { tail, parses: false };
  }
}

/**
 * Reopens a storm session after its writer was killed, checks it, then appends a resume marker
 * (proving that appending resumes) and closes it. Checks: the open does not throw (the dead
 * writer's lock is taken over); a torn last line is reported as `SESSION_TAIL_TORN` and its exact
 * bytes are in the quarantine file, a complete last line without newline is kept; no other issue;
 * every entry is a storm message equal to the one its seq stands for, or a resume marker, in one
 * linear chain with increasing seqs; every acknowledged entry is present with its id; afterwards
 * every line of the file parses.
 */
export function verifyStormSession(file: string, expected: StormExpectation): StormVerification {
  const problems: string[] = [];
  const result: StormVerification = {
    problems,
    stormEntries: 0,
    maxSeq: -1,
    lost: 0,
    quarantined: false,
    repaired: false,
    resumeId: undefined,
  };
  const raw = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
  const torn = tornTail(raw);
  const store = openSessionStore(file, {
    storage: { durability: expected.durability, sidecarIndex: true },
    cwd: "/storm",
  });
  try {
    const issues = store.issues;
    if (torn && !torn.parses) {
      const issue = issues.find((i) => i.code === "SESSION_TAIL_TORN");
      if (!issue?.quarantinePath) problems.push("torn tail not reported as SESSION_TAIL_TORN");
      else if (!readFileSync(issue.quarantinePath).equals(torn.tail))
        problems.push(`quarantine file ${issue.quarantinePath} does not hold the torn bytes`);
      result.quarantined = true;
    }
    if (torn?.parses) result.repaired = true;
    const unexpected = issues.filter((i) => !(torn && !torn.parses && i.code === "SESSION_TAIL_TORN"));
    for (const issue of unexpected) problems.push(`unexpected issue ${issue.code}: ${issue.message}`);

    const seen = new Map<number, string>();
    let previousId: string | null = null;
    for (const entry of store.getEntries()) {
      if (entry.parentId !== previousId) problems.push(`entry ${entry.id} is not a child of ${previousId}`);
      previousId = entry.id;
      if (entry.type === "custom" && entry.customType === RESUME_TYPE) {
        if (!expected.resumeIds.has(entry.id)) problems.push(`unknown resume marker ${entry.id}`);
        continue;
      }
      const message = entry.type === "message" ? (entry as { message: unknown }).message : undefined;
      const seq = stormSeqOf(message);
      if (seq === undefined) {
        problems.push(`entry ${entry.id} (${entry.type}) is no storm entry`);
        continue;
      }
      if (!isDeepStrictEqual(message, stormMessage(seq))) problems.push(`storm entry ${seq} changed`);
      if (seq <= result.maxSeq) problems.push(`storm entry ${seq} follows ${result.maxSeq}`);
      result.maxSeq = Math.max(result.maxSeq, seq);
      seen.set(seq, entry.id);
      result.stormEntries++;
    }
    for (const [seq, id] of expected.acked) {
      if (seen.get(seq) !== id) {
        result.lost++;
        problems.push(`acknowledged storm entry ${seq} (${id}) is ${seen.has(seq) ? "changed" : "missing"}`);
      }
    }
    result.resumeId = store.appendCustomEntry(RESUME_TYPE, { afterSeq: result.maxSeq }).id;
  } finally {
    store.close();
  }
  const lines = readFileSync(file, "utf8").split("\n");
  if (lines.pop() !== "") problems.push("file does not end with a newline after the resume append");
  lines.forEach((line, i) => {
    try {
      JSON.parse(line);
    } catch {
      problems.push(`line ${i + 1} does not parse after the resume append`);
    }
  });
  return result;
}
