import {
  type CompactionPreparation,
  compact,
  estimateProjectedContextTokens,
  prepareCompaction,
} from "@arbor/compaction";
import type { Model, Provider } from "@arbor/providers";
import { RuntimeError, resolveArborHome, type Settings } from "@arbor/runtime";
import type { SessionModelRef, SessionStore } from "@arbor/session-store";
import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import { formatInteger } from "../format/format-number";
import { createCliModelRegistry } from "../models/create-cli-model-registry";
import type { CustomModelDefinition } from "../models/load-models-file";
import { openSessionLocation } from "../sessions/open-session-location";
import type { CliConfig } from "../trust/load-cli-config";
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
  /**
   * The model the flags, settings and session select, with or without its key: the session model of
   * an extension-aware compaction (its window fits the budgets). Unset when it is unknown.
   */
  sessionModel?: Model;
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
  const { store } = await openSessionLocation(command.file, {
    readOnly: false,
    arborHome: resolveArborHome(io.env ?? process.env),
  });
  try {
    // The path from the latest compaction's first kept entry: all the preparation and the estimates
    // depend on (the rest of a long session's path is not read).
    const branch = store.getBranch(undefined, { sinceLatestCompaction: true });
    const projection = store.getProjection();
    if (branch.length === 0) {
      io.stdout.write(`Nothing to compact: ${command.file} has no entries.\n`);
      return 0;
    }
    if (branch.at(-1)?.type === "compaction") {
      io.stdout.write(`Nothing to compact: ${command.file} already ends with a compaction.\n`);
      return 0;
    }
    const config = loadOfflineConfig(io, {
      projectModels: !command.offline,
      extensions: !command.noExtensions && !command.offline,
      trustFlag: command.trustProject,
    });
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
    const done =
      config.extensions.length > 0
        ? await compactThroughRuntime(command, io, { store, choice, config, keepRecentTokens: keep.value })
        : await compactPlainly(command, io, { store, choice, preparation });
    if (done === undefined) return 0;
    const summarized = preparation.messagesToSummarize.length + preparation.turnPrefixMessages.length;
    io.stdout.write(
      [
        `Compacted ${command.file} with ${done.summarizer}.`,
        `  summarized ${formatInteger(summarized)} messages${preparation.isSplitTurn ? " (the cut splits a turn)" : ""}; kept from ${done.firstKeptEntryId} (keepRecentTokens ${formatInteger(keep.value)}, ${keep.source})`,
        `  context ~${formatInteger(done.tokensBefore)} → ~${formatInteger(done.tokensAfter)} tokens`,
        `  new entry ${done.entryId} (compaction), now the leaf`,
        "",
      ].join("\n"),
    );
    return 0;
  } finally {
    store.close();
  }
}

/** What a compaction wrote, for the report. */
interface CompactionDone {
  /** Who wrote the summary, as printed ("anthropic/claude-…", "the offline summarizer (…)"). */
  summarizer: string;
  entryId: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  tokensAfter: number;
}

function describeSummarizer(choice: SummarizerChoice, kind: string, fellBack: boolean): string {
  if (kind === "extension") return "an extension's summary (session_before_compact)";
  if (kind === "model" && choice.model) return `${choice.model.provider}/${choice.model.id}`;
  return `the offline summarizer (${fellBack ? "after the model failed" : (choice.offlineReason ?? "no model")})`;
}

/** The compaction without extensions: `compact` of `@arbor/compaction`, appended as is. */
async function compactPlainly(
  command: CompactCommand,
  io: CliIo,
  context: { store: SessionStore; choice: SummarizerChoice; preparation: CompactionPreparation },
): Promise<CompactionDone> {
  const { store, choice, preparation } = context;
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
  const entry = store.appendCompaction({
    summary: result.summary,
    firstKeptEntryId: result.firstKeptEntryId,
    tokensBefore: result.tokensBefore,
    details: result.details,
    ...(result.usage ? { usage: result.usage } : {}),
    fromHook: false,
  });
  // Acknowledged before it is reported: durable in a database session (at once for a file).
  await store.flush();
  return {
    summarizer: describeSummarizer(choice, result.summarizer, result.fallbackError !== undefined),
    entryId: entry.id,
    firstKeptEntryId: entry.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    tokensAfter: estimateProjectedContextTokens(
      store.getProjection(),
      store.getBranch(undefined, { sinceLatestCompaction: true }),
    ).tokens,
  };
}

/**
 * The compaction with the user's extensions, through the runtime (`session.compact`). Returns
 * `undefined` when the runtime found nothing to compact (reported on stdout).
 * @throws CliError `CLI_COMPACTION_CANCELLED`; extension load errors.
 */
async function compactThroughRuntime(
  command: CompactCommand,
  io: CliIo,
  context: { store: SessionStore; choice: SummarizerChoice; config: CliConfig; keepRecentTokens: number },
): Promise<CompactionDone | undefined> {
  const { store, choice, config } = context;
  const sessionModel = choice.sessionModel ?? choice.model;
  if (sessionModel === undefined) {
    throw new CliError(
      "CLI_UNKNOWN_MODEL",
      `${command.file}: its model is unknown, so the extensions' session cannot fit its budgets; pass --model or --no-extensions`,
    );
  }
  const { compactWithExtensions } = await import("./compact-with-extensions");
  try {
    const outcome = await compactWithExtensions(
      {
        store,
        sessionModel,
        choice,
        settings: {
          ...config.settings,
          compaction: { ...config.settings.compaction, keepRecentTokens: context.keepRecentTokens },
        },
        extensions: config.extensions,
        instructions: command.instructions,
        redactText: (text) => io.redactor?.redact(text) ?? text,
        models: createCliModelRegistry({
          customModels: config.customModels,
          env: io.env ?? process.env,
          redactor: io.redactor,
        }),
      },
      io,
    );
    if (outcome.fallbackMessage !== undefined) {
      io.stderr.write(
        `arbor: the model summary failed (${outcome.fallbackMessage}); used the offline summarizer\n`,
      );
    }
    return {
      summarizer: describeSummarizer(choice, outcome.summarizer, outcome.fallbackMessage !== undefined),
      entryId: outcome.entryId,
      firstKeptEntryId: outcome.firstKeptEntryId,
      tokensBefore: outcome.tokensBefore,
      tokensAfter: outcome.estimatedTokensAfter,
    };
  } catch (error) {
    if (
      RuntimeError.isInstance(error) &&
      (error.code === "NOTHING_TO_COMPACT" || error.code === "ALREADY_COMPACTED")
    ) {
      io.stdout.write(`Nothing to compact: ${error.message}.\n`);
      return undefined;
    }
    throw error;
  }
}
