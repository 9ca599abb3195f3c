import type { SessionCompactionResult } from "../events/session-events";
import { notify, type SessionCore } from "../internal/session-core";
import type { RuntimeError } from "../runtime-error";
import { runCompaction } from "./run-compaction";

/**
 * pi's manual `compact(customInstructions)`: runs the compaction pipeline with reason `manual` (no
 * retry, no loop guard). When there is nothing to compact it still reports a failed compaction
 * (`compaction_start`, `compaction_end` with the error, `session_compact_failed`), as pi does.
 * A success clears the loop guard's "stalled" mark. The caller holds the session lock.
 *
 * @throws RuntimeError `NOTHING_TO_COMPACT`, `ALREADY_COMPACTED`, `COMPACTION_CANCELLED`,
 * `COMPACTION_FAILED` (the session is unchanged in every case).
 */
export async function compactManually(
  core: SessionCore,
  customInstructions: string | undefined,
  signal: AbortSignal,
): Promise<SessionCompactionResult> {
  const outcome = await runCompaction(core, {
    reason: "manual",
    willRetry: false,
    customInstructions,
    signal,
  });
  if (outcome.status === "compacted") {
    core.stalledCompactionId = undefined;
    return outcome.result;
  }
  if (outcome.status === "skipped") await reportNothingToDo(core, outcome.error);
  throw outcome.error;
}

async function reportNothingToDo(core: SessionCore, error: RuntimeError): Promise<void> {
  const errorMessage = `Compaction failed: ${error.message}`;
  await notify(core, { type: "compaction_start", reason: "manual", willRetry: false });
  await notify(core, {
    type: "compaction_end",
    reason: "manual",
    result: undefined,
    aborted: false,
    willRetry: false,
    errorMessage,
  });
  await notify(core, {
    type: "session_compact_failed",
    reason: "manual",
    errorMessage,
    aborted: false,
    willRetry: false,
    fromExtension: false,
  });
}
