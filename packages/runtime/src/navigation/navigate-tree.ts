import { collectEntriesForBranchSummary } from "@arbor/compaction";
import type { Usage } from "@arbor/providers";
import type { BranchSummaryEntry } from "@arbor/session-store";
import type { TreePreparation } from "../events/runtime-hooks";
import { notify, type SessionCore } from "../internal/session-core";
import { RuntimeError } from "../runtime-error";
import { summarizeBranch } from "./summarize-branch";

/** Options of `session.navigate`. */
export interface NavigateOptions {
  /** Summarize the branch being left and write the summary where the conversation continues. */
  summarize?: boolean;
  /** Focus for the summary (appended to the default instructions). */
  customInstructions?: string;
  /** With `customInstructions`: use them instead of the default instructions. */
  replaceInstructions?: boolean;
  /** Label for the summary entry (or, without a summary, for the target). */
  label?: string;
}

/** What a navigation did. */
export interface NavigateResult {
  /** True when an extension cancelled it or it was aborted during the summary. */
  cancelled: boolean;
  /** True when `abort()` stopped the summary. */
  aborted?: boolean;
  /** For a user or custom message target: its text, to put back in the editor. */
  editorText?: string;
  /** The `branch_summary` entry written, if any. */
  summaryEntry?: BranchSummaryEntry;
}

function contentText(content: string | Array<{ type: string; text?: string }>): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");
}

/**
 * pi's `navigateTree` (see packages/runtime/docs/reference.md#api), run under the session lock:
 * 1. a target equal to the leaf is a no-op; an unknown target throws `ENTRY_NOT_FOUND`;
 * 2. the entries of the branch being left are collected, then `session_before_tree` may cancel,
 *    supply the summary, or override instructions and label;
 * 3. with `summarize`, the branch summary is made (model, then the offline fallback);
 * 4. the new leaf is the target, or its parent for a user or custom message (its text is returned as
 *    `editorText`); a summary becomes a `branch_summary` child of the new leaf (a new root when the
 *    parent is null), carrying the label; without one the leaf just moves and the label goes to
 *    the target;
 * 5. `session_tree` is emitted.
 *
 * Nothing is written before step 4, so a cancel, an abort or a failure leaves the session unchanged.
 *
 * @throws RuntimeError `ENTRY_NOT_FOUND`, `BRANCH_SUMMARY_FAILED`; store errors as thrown.
 */
export async function navigateTree(
  core: SessionCore,
  targetId: string,
  options: NavigateOptions,
  signal: AbortSignal,
): Promise<NavigateResult> {
  const { store } = core;
  const oldLeafId = store.leafId;
  if (targetId === oldLeafId) return { cancelled: false };
  const target = store.getEntry(targetId);
  if (target === undefined) {
    throw new RuntimeError("ENTRY_NOT_FOUND", `Cannot navigate: entry ${targetId} is not in the session`, {
      entryId: targetId,
    });
  }
  const { entries, commonAncestorId } = collectEntriesForBranchSummary(store, oldLeafId, targetId);
  const preparation: TreePreparation = {
    targetId,
    oldLeafId,
    commonAncestorId,
    entriesToSummarize: entries,
    userWantsSummary: options.summarize ?? false,
    customInstructions: options.customInstructions,
    replaceInstructions: options.replaceInstructions,
    label: options.label,
  };
  const hook = await core.bus.intercept(
    "session_before_tree",
    { type: "session_before_tree", preparation, signal },
    { signal },
  );
  if (hook.cancelled) return { cancelled: true };
  if (signal.aborted) return { cancelled: true, aborted: true };
  const overrides = hook.result ?? {};
  const customInstructions = overrides.customInstructions ?? options.customInstructions;
  const replaceInstructions = overrides.replaceInstructions ?? options.replaceInstructions;
  const label = overrides.label ?? options.label;
  const fromExtension = options.summarize === true && overrides.summary !== undefined;

  let summary: { summary: string; details?: unknown; usage?: Usage } | undefined;
  if (fromExtension) {
    summary = overrides.summary;
  } else if (options.summarize && entries.length > 0) {
    const made = await summarizeBranch(core, entries, {
      ...(customInstructions === undefined ? {} : { customInstructions }),
      ...(replaceInstructions === undefined ? {} : { replaceInstructions }),
      signal,
    });
    if (made.aborted) return { cancelled: true, aborted: true };
    summary = made;
  }
  if (signal.aborted) return { cancelled: true, aborted: true };

  let newLeafId: string | null = targetId;
  let editorText: string | undefined;
  if ((target.type === "message" && target.message.role === "user") || target.type === "custom_message") {
    newLeafId = target.parentId;
    editorText = contentText(
      target.type === "message" && target.message.role === "user"
        ? target.message.content
        : target.type === "custom_message"
          ? target.content
          : "",
    );
  }
  let summaryEntry: BranchSummaryEntry | undefined;
  if (summary?.summary) {
    summaryEntry = store.branchWithSummary(newLeafId, {
      summary: summary.summary,
      details: summary.details,
      usage: summary.usage,
      fromHook: fromExtension,
    });
    if (label) store.appendLabelChange(summaryEntry.id, label);
  } else {
    if (newLeafId === null) store.resetLeaf();
    else store.branch(newLeafId);
    if (label) store.appendLabelChange(targetId, label);
  }
  await notify(core, {
    type: "session_tree",
    newLeafId: store.leafId,
    oldLeafId,
    ...(summaryEntry === undefined ? {} : { summaryEntry, fromExtension }),
  });
  return {
    cancelled: false,
    ...(editorText === undefined ? {} : { editorText }),
    ...(summaryEntry ? { summaryEntry } : {}),
  };
}
