import type { SessionIssue } from "@arbor/session-store";
import type { CliIo } from "../cli-io";

/**
 * Prints one `arbor: warning: …` line for a problem the session store found: a corrupt line kept
 * aside, a torn last line quarantined, an invalid entry. Used as the store's `onIssue`, so problems
 * found at open and those found later (a damaged line is only seen when its entry is first read)
 * are both shown, never hidden.
 */
export function warnAboutIssue(issue: SessionIssue, io: CliIo): void {
  io.stderr.write(`arbor: warning: ${issue.message.replace(/\s*\n\s*/g, " ")}\n`);
}
