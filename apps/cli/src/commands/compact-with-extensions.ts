import type { Model, Provider } from "@arbor/providers";
import {
  type AgentSessionEvent,
  createAgentSession,
  type ModelRegistry,
  RuntimeError,
  type Settings,
} from "@arbor/runtime";
import type { SessionStore } from "@arbor/session-store";
import { formatExtensionNotice } from "../agent/format-extension-notice";
import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import type { SummarizerChoice } from "./compact-command";

/** What `arbor compact` hands the runtime when extensions are configured. */
export interface CompactWithExtensionsInput {
  store: SessionStore;
  /** The session's model (thresholds and budgets follow it), with or without a key. */
  sessionModel: Model;
  choice: SummarizerChoice;
  /** The settings, with `compaction.keepRecentTokens` already set to the budget in effect. */
  settings: Settings;
  /** Absolute paths of the extension files to install. */
  extensions: string[];
  instructions: string | undefined;
  /** Removes secrets from error texts written to the session file. */
  redactText: (text: string) => string;
  /** The models the extensions may use (`api.models`). */
  models: ModelRegistry;
}

/** What the extension-aware compaction did. */
export interface CompactWithExtensionsOutcome {
  entryId: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  estimatedTokensAfter: number;
  /** `model`, `offline` or `extension` (an extension's `session_before_compact` wrote the summary). */
  summarizer: "model" | "offline" | "extension";
  /** Why the model summary was not used, when the offline summarizer stood in for it. */
  fallbackMessage: string | undefined;
}

/** A provider for a session that never sends a prompt: refuses any request. */
function noPromptProvider(): Provider {
  return {
    specificationVersion: "v1",
    name: "arbor-compact",
    stream() {
      throw new CliError("CLI_USAGE", "arbor compact sends no prompt; no model is configured for it");
    },
  };
}

/**
 * `arbor compact` with the user's extensions: runs the runtime's manual compaction (`session.compact`)
 * over `store`, so `session_before_compact` handlers may cancel it or write the summary, exactly as
 * `/compact` does in interactive mode. Extensions get `session_start` (reason `startup`) and
 * `session_shutdown` (reason `quit`) around it.
 *
 * @throws CliError `CLI_COMPACTION_CANCELLED` when an extension cancelled (nothing written);
 *   RuntimeError `NOTHING_TO_COMPACT` / `ALREADY_COMPACTED` / `COMPACTION_FAILED`; extension load
 *   errors (`EXTENSION_*`).
 */
export async function compactWithExtensions(
  input: CompactWithExtensionsInput,
  io: CliIo,
): Promise<CompactWithExtensionsOutcome> {
  const { choice } = input;
  const summaryModel = choice.model;
  const session = await createAgentSession({
    store: input.store,
    model: input.sessionModel,
    provider: choice.provider ?? noPromptProvider(),
    settings: input.settings,
    extensions: input.extensions,
    redactText: input.redactText,
    mode: "command",
    models: input.models,
    compaction: {
      provider: choice.provider ?? null,
      ...(summaryModel ? { model: summaryModel } : {}),
    },
  });
  let fallbackMessage: string | undefined;
  const unsubscribe = session.subscribe((event: AgentSessionEvent) => {
    if (event.type === "compaction_fallback" && choice.model) fallbackMessage = event.errorMessage;
    if (event.type === "hook_error") io.stderr.write(`arbor: ${event.error.message}\n`);
    if (event.type === "extension_notice") io.stderr.write(`arbor: ${formatExtensionNotice(event)}\n`);
  });
  try {
    const result = await session.compact(input.instructions);
    return {
      entryId: result.entryId,
      firstKeptEntryId: result.firstKeptEntryId,
      tokensBefore: result.tokensBefore,
      estimatedTokensAfter: result.estimatedTokensAfter,
      summarizer: result.summarizer,
      fallbackMessage,
    };
  } catch (error) {
    if (RuntimeError.isInstance(error) && error.code === "COMPACTION_CANCELLED") {
      throw new CliError("CLI_COMPACTION_CANCELLED", `${error.message}; nothing was written`);
    }
    throw error;
  } finally {
    unsubscribe();
    await session.dispose("quit");
  }
}
