import type { SessionStore } from "@arbor/session-store";
import type { CliIo } from "../cli-io";

/**
 * Prints one `arbor: warning: …` line per problem the store found while opening (corrupt lines kept
 * aside, a torn last line quarantined, invalid entries), so that the agent modes never hide them.
 */
export function warnAboutIssues(store: SessionStore, io: CliIo): void {
  for (const issue of store.issues) {
    io.stderr.write(`arbor: warning: ${issue.message.replace(/\s*\n\s*/g, " ")}\n`);
  }
}
