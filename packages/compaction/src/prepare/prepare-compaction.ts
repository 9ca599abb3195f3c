import type { AgentMessage } from "@arbor/agent-loop";
import type { CompactionEntry, SessionEntry } from "@arbor/session-store";
import {
  addFileListsFromDetails,
  createFileOps,
  extractFileOpsFromMessage,
  type FileOperations,
  type FileToolMapping,
} from "../files/file-operations";
import { BranchProjection } from "../internal/branch-projection";
import { estimateProjectionView } from "../internal/estimate-projection-view";
import type { CompactionSettings } from "../settings/compaction-settings";
import { defaultTokenCounter, type TokenCounter } from "../tokens/token-counter";
import { searchProjectedCutPoint } from "./find-projected-cut-point";

/** Everything needed to summarize and then append a compaction (pi's `CompactionPreparation`, plus extras). */
export interface CompactionPreparation {
  /** Id of the first entry kept verbatim (the new compaction's `firstKeptEntryId`). */
  firstKeptEntryId: string;
  /** Edited, model-visible messages to summarize (no system messages, no compaction summaries). */
  messagesToSummarize: AgentMessage[];
  /** For a split turn: the turn's messages before the cut (summarized separately); otherwise empty. */
  turnPrefixMessages: AgentMessage[];
  /** True when the cut falls inside a turn. */
  isSplitTurn: boolean;
  /** Id of the entry that starts the split turn (beyond pi); `undefined` when the turn is not split. */
  turnStartEntryId?: string;
  /** Context tokens before compaction, recomputed from the edited projection. */
  tokensBefore: number;
  /** Summary of the compaction being extended, if the branch already has one. */
  previousSummary?: string;
  /** Files read and modified: inherited from the previous compaction plus the summarized messages. */
  fileOps: FileOperations;
  /** The settings used. */
  settings: CompactionSettings;
}

/** Options of {@link prepareCompaction}. */
export interface PrepareCompactionOptions {
  /** Token counter for the cut point and `tokensBefore`. Default: pi's chars/4 (needed for pi parity). */
  tokenCounter?: TokenCounter;
  /** Tool names tracked as file operations. Default: `read` / `write` / `edit`. */
  fileToolMapping?: FileToolMapping;
}

function collectMessages(projection: BranchProjection, from: number, to: number): AgentMessage[] {
  const result: AgentMessage[] = [];
  projection.collectConversation(from, to, result);
  return result;
}

/**
 * Decides what a compaction of `branchEntries` (the root→leaf branch, e.g. `store.getBranch()`) would
 * summarize and keep. Equal to pi 1.6.0's `prepareCompaction` with the default counter:
 * 1. an empty branch, or one ending with a compaction, gives `undefined` ("nothing to compact",
 *    "already compacted");
 * 2. the branch is projected (latest compaction, kept range, context edits);
 * 3. with a previous compaction, the range starts right after it: messages that survived it are
 *    summarized again, with its summary as `previousSummary`;
 * 4. `tokensBefore` is the projected estimate (usage after the latest edit/compaction, else chars/4);
 * 5. the cut point is searched in the edited projection (never at a tool result; split turns; the
 *    recovery special case for omitted failed responses);
 * 6. `messagesToSummarize` runs up to the turn start of a split turn (else up to the cut);
 *    `turnPrefixMessages` is the split turn's part before the cut;
 * 7. nothing to summarize gives `undefined` ("nothing to compact");
 * 8. file operations: the previous compaction's `details` (unless it came from an extension), the
 *    summarized messages and the turn prefix.
 *
 * Pure: never mutates the entries. Work is proportional to the context since the latest compaction
 * (plus a scan for ids), and token counts of unedited entries are cached per entry object, so calling
 * it again on a longer branch only counts the new entries.
 */
export function prepareCompaction(
  branchEntries: readonly SessionEntry[],
  settings: CompactionSettings,
  options: PrepareCompactionOptions = {},
): CompactionPreparation | undefined {
  // An empty branch (a session with no entries yet) has nothing to compact.
  if (branchEntries.length === 0 || branchEntries[branchEntries.length - 1]?.type === "compaction")
    return undefined;
  const counter = options.tokenCounter ?? defaultTokenCounter;
  const projection = new BranchProjection(branchEntries, counter);
  const hasPrevious = projection.isCompaction(0) && projection.messages(0).length > 0;
  const previous = hasPrevious ? (projection.entryAt(0) as CompactionEntry) : undefined;
  const boundaryStart = hasPrevious ? 1 : 0;
  const tokensBefore = estimateProjectionView(projection, branchEntries, counter).tokens;
  const cut = searchProjectedCutPoint(
    projection,
    boundaryStart,
    projection.length,
    settings.keepRecentTokens,
  );
  const firstKept =
    cut.firstKeptEntryIndex < projection.length ? projection.entryAt(cut.firstKeptEntryIndex) : undefined;
  if (!firstKept?.id) return undefined;
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize = collectMessages(projection, boundaryStart, historyEnd);
  const turnPrefixMessages = cut.isSplitTurn
    ? collectMessages(projection, cut.turnStartIndex, cut.firstKeptEntryIndex)
    : [];
  if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) return undefined;

  const fileOps = createFileOps();
  if (previous !== undefined && !previous.fromHook) addFileListsFromDetails(previous.details, fileOps);
  for (const message of messagesToSummarize)
    extractFileOpsFromMessage(message, fileOps, options.fileToolMapping);
  for (const message of turnPrefixMessages)
    extractFileOpsFromMessage(message, fileOps, options.fileToolMapping);

  const preparation: CompactionPreparation = {
    firstKeptEntryId: firstKept.id,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore,
    fileOps,
    settings,
  };
  if (cut.isSplitTurn) preparation.turnStartEntryId = projection.entryAt(cut.turnStartIndex).id;
  if (previous !== undefined) preparation.previousSummary = previous.summary;
  return preparation;
}
