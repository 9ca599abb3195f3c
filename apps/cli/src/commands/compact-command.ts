import {
  type CompactionPreparation,
  computeFileLists,
  estimateProjectedContextTokens,
  formatFileOperations,
  prepareCompaction,
  summarizeOffline,
} from "@arbor/compaction";
import type { Usage } from "@arbor/providers";
import { resolveArborHome } from "@arbor/runtime";
import type { CliIo } from "../cli-io";
import { formatInteger } from "../format/format-number";
import type { CliCommand } from "../parse-cli-args";
import { openSessionFile } from "../sessions/open-session-file";
import { resolveKeepRecentTokens } from "./resolve-keep-recent-tokens";

type CompactCommand = Extract<CliCommand, { kind: "compact" }>;

/** A summary and who wrote it. */
export interface CompactionSummaryResult {
  /** The summary text without the file-list tags (they are appended by the command). */
  summary: string;
  usage?: Usage;
  /** For the report: "the offline summarizer (…)" or "anthropic/claude-…". */
  summarizer: string;
}

/**
 * Chooses and runs the summarizer of `arbor compact`: the offline summarizer with `--offline`;
 * otherwise the configured model when its API key is set, else the offline summarizer (saying why).
 * Model summarization is provided by {@link summarizeWithModel} (see select-summarizer).
 */
export type Summarize = (
  preparation: CompactionPreparation,
  command: CompactCommand,
  context: {
    env: NodeJS.ProcessEnv;
    cwd: string;
    sessionModel: { provider: string; modelId: string } | null;
  },
) => Promise<CompactionSummaryResult>;

/** The offline summarizer (deterministic, no model). */
export function summarizeWithoutModel(
  preparation: CompactionPreparation,
  instructions: string | undefined,
  why: string,
): CompactionSummaryResult {
  return {
    summary: summarizeOffline(preparation, instructions ? { customInstructions: instructions } : {}),
    summarizer: `the offline summarizer (${why})`,
  };
}

/**
 * `arbor compact <session.jsonl>`: appends a compaction entry at the leaf. Takes the session's writer
 * lock. Prints what it did (summarizer, ranges, tokens before and after). Nothing to compact (the
 * recent-token budget covers everything, or the branch already ends with a compaction) is reported on
 * stdout with exit code 0 and no change to the file.
 */
export async function runCompactCommand(
  command: CompactCommand,
  io: CliIo,
  summarize: Summarize,
): Promise<number> {
  const env = io.env ?? process.env;
  const cwd = io.cwd ?? process.cwd();
  const { store } = openSessionFile(command.file, { readOnly: false });
  try {
    const branch = store.getBranch();
    const projection = store.getProjection();
    if (branch.at(-1)?.type === "compaction") {
      io.stdout.write(`Nothing to compact: ${command.file} already ends with a compaction.\n`);
      return 0;
    }
    const keep = resolveKeepRecentTokens(command.keepRecentTokens, {
      cwd,
      arborHome: resolveArborHome(env),
      model: projection.model,
    });
    const preparation = prepareCompaction(branch, {
      enabled: true,
      reserveTokens: 0,
      keepRecentTokens: keep.value,
    });
    if (preparation === undefined) {
      io.stdout.write(
        `Nothing to compact: the last ${formatInteger(keep.value)} tokens (keepRecentTokens, ${keep.source}) cover the whole context of ${command.file}.\n`,
      );
      return 0;
    }
    const result = await summarize(preparation, command, { env, cwd, sessionModel: projection.model });
    const files = computeFileLists(preparation.fileOps);
    const entry = store.appendCompaction({
      summary: result.summary + formatFileOperations(files.readFiles, files.modifiedFiles),
      firstKeptEntryId: preparation.firstKeptEntryId,
      tokensBefore: preparation.tokensBefore,
      details: { readFiles: files.readFiles, modifiedFiles: files.modifiedFiles },
      ...(result.usage ? { usage: result.usage } : {}),
      fromHook: false,
    });
    const after = estimateProjectedContextTokens(store.getProjection(), store.getBranch()).tokens;
    const summarized = preparation.messagesToSummarize.length + preparation.turnPrefixMessages.length;
    io.stdout.write(
      [
        `Compacted ${command.file} with ${result.summarizer}.`,
        `  summarized ${formatInteger(summarized)} messages${preparation.isSplitTurn ? " (the cut splits a turn)" : ""}; kept from ${preparation.firstKeptEntryId} (keepRecentTokens ${formatInteger(keep.value)}, ${keep.source})`,
        `  context ~${formatInteger(preparation.tokensBefore)} → ~${formatInteger(after)} tokens`,
        `  new entry ${entry.id} (compaction), now the leaf`,
        "",
      ].join("\n"),
    );
    return 0;
  } finally {
    store.close();
  }
}
