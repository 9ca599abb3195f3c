import { compact, estimateProjectedContextTokens, prepareCompaction } from "@arbor/compaction";
import type { Model, Provider } from "@arbor/providers";
import { resolveArborHome, type Settings } from "@arbor/runtime";
import type { SessionModelRef } from "@arbor/session-store";
import type { CliIo } from "../cli-io";
import { formatInteger } from "../format/format-number";
import type { CustomModelDefinition } from "../models/load-models-file";
import { openSessionFile } from "../sessions/open-session-file";
import { loadOfflineConfig } from "../trust/load-offline-config";
import type { CompactInput } from "../usage/compact-usage";
import { resolveOfflineCompaction } from "./resolve-offline-compaction";

type CompactCommand = CompactInput;

/** Who writes the summary: a model (with its provider and key) or, without one, the offline summarizer. */
export interface SummarizerChoice {
  provider?: Provider;
  model?: Model;
  apiKey?: string;
  /** Why the offline summarizer is used (`--offline`, `no ANTHROPIC_API_KEY set`); unset with a model. */
  offlineReason?: string;
}

/**
 * Chooses the summarizer of `arbor compact` (see `chooseSummarizer`).
 *
 * Contract: throws a user error (unknown model, invalid models file) rather than falling back silently.
 */
export type ChooseSummarizer = (
  command: CompactCommand,
  context: {
    env: NodeJS.ProcessEnv;
    /** The settings (the project's only in a trusted folder). */
    settings: Settings;
    /** Declared models (the project's only in a trusted folder; none with `--offline`). */
    customModels: readonly CustomModelDefinition[];
    sessionModel: SessionModelRef | null;
  },
) => Promise<SummarizerChoice>;

/**
 * `arbor compact <session.jsonl>`: appends a compaction entry at the leaf. Takes the session's writer
 * lock. Prints what it did (summarizer, ranges, tokens before and after). Nothing to compact (the
 * recent-token budget covers everything, or the branch already ends with a compaction) is reported on
 * stdout with exit code 0 and no change to the file.
 */
export async function runCompactCommand(
  command: CompactCommand,
  io: CliIo,
  chooseSummarizer: ChooseSummarizer,
): Promise<number> {
  const env = io.env ?? process.env;
  const { store } = openSessionFile(command.file, {
    readOnly: false,
    arborHome: resolveArborHome(io.env ?? process.env),
  });
  try {
    const branch = store.getBranch();
    const projection = store.getProjection();
    if (branch.length === 0) {
      io.stdout.write(`Nothing to compact: ${command.file} has no entries.\n`);
      return 0;
    }
    if (branch.at(-1)?.type === "compaction") {
      io.stdout.write(`Nothing to compact: ${command.file} already ends with a compaction.\n`);
      return 0;
    }
    const config = loadOfflineConfig(io, { projectModels: !command.offline });
    const resolved = resolveOfflineCompaction(command.keepRecentTokens, {
      settings: config.settings,
      fromFiles: config.fromFiles,
      model: projection.model,
      customModels: config.customModels,
    });
    const keep = { value: resolved.keepRecentTokens, source: resolved.keepRecentTokensSource };
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
    const choice = await chooseSummarizer(command, {
      env,
      settings: config.settings,
      customModels: config.customModels,
      sessionModel: projection.model,
    });
    io.redactor?.add(choice.apiKey);
    io.redactor?.addUrlCredentials(choice.model?.baseUrl);
    const result = await compact(preparation, {
      ...(choice.provider && choice.model ? { provider: choice.provider, model: choice.model } : {}),
      ...(choice.apiKey ? { apiKey: choice.apiKey } : {}),
      ...(command.instructions ? { customInstructions: command.instructions } : {}),
      offlineFallback: true,
    });
    if (result.fallbackError) {
      io.stderr.write(
        `arbor: the model summary failed (${result.fallbackError.message}); used the offline summarizer\n`,
      );
    }
    const summarizer =
      result.summarizer === "model" && choice.model
        ? `${choice.model.provider}/${choice.model.id}`
        : `the offline summarizer (${result.fallbackError ? "after the model failed" : (choice.offlineReason ?? "no model")})`;
    const entry = store.appendCompaction({
      summary: result.summary,
      firstKeptEntryId: result.firstKeptEntryId,
      tokensBefore: result.tokensBefore,
      details: result.details,
      ...(result.usage ? { usage: result.usage } : {}),
      fromHook: false,
    });
    const after = estimateProjectedContextTokens(store.getProjection(), store.getBranch()).tokens;
    const summarized = preparation.messagesToSummarize.length + preparation.turnPrefixMessages.length;
    io.stdout.write(
      [
        `Compacted ${command.file} with ${summarizer}.`,
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
