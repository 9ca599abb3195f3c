import { stopRun } from "../compaction/auto-compaction";
import { MAX_BOUNDARY_CONTINUATIONS, type RunState } from "../internal/run-state";
import type { SessionCore } from "../internal/session-core";
import { RuntimeError } from "../runtime-error";

/**
 * Decides whether a boundary's `continue` is honoured, under the guards:
 * - a boundary that appended a compaction counts as an automatic compaction: after
 *   `maxConsecutiveAutoCompactions` of them (and other automatic compactions) without a user
 *   message in between, the prompt stops with `COMPACTION_LOOP_GUARD` instead of continuing;
 * - at most `MAX_BOUNDARY_CONTINUATIONS` continuations per prompt, then `CONTINUATION_LIMIT`.
 * Both stops are `session_error` events and the prompt's `error`.
 */
export async function acceptContinuation(
  core: SessionCore,
  run: RunState,
  hookName: string,
  compacted: boolean,
): Promise<boolean> {
  if (run.error !== undefined || run.signal.aborted) return false;
  if (compacted) {
    if (run.consecutiveAutoCompactions >= run.maxConsecutiveAutoCompactions) {
      await stopRun(
        core,
        run,
        new RuntimeError(
          "COMPACTION_LOOP_GUARD",
          `Stopped after ${run.consecutiveAutoCompactions} automatic compactions in a row without a user message; a "${hookName}" handler appended a compaction and asked to continue again`,
        ),
      );
      return false;
    }
    run.consecutiveAutoCompactions++;
  }
  if (run.boundaryContinuations >= MAX_BOUNDARY_CONTINUATIONS) {
    await stopRun(
      core,
      run,
      new RuntimeError(
        "CONTINUATION_LIMIT",
        `Stopped after ${run.boundaryContinuations} requests that boundary hooks asked for in one prompt; a "${hookName}" handler asked for one more`,
      ),
    );
    return false;
  }
  run.boundaryContinuations++;
  run.inBoundaryContinuation = true;
  return true;
}
