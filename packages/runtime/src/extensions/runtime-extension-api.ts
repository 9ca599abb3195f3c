import { convertToLlm } from "@arbor/agent-loop";
import {
  type CompactionPreparation,
  compact,
  computeFileLists,
  estimateTokens,
  findCutPoint,
  findProjectedCutPoint,
  formatFileOperations,
  generateSummary,
  prepareCompaction,
  type SummaryConversation,
  serializeConversation,
  summarizeOffline,
} from "@arbor/compaction";
import type { ExtensionApi } from "@arbor/extensions";
import type { Model, Provider } from "@arbor/providers";
import type {
  ContextEditEntry,
  ContextEditReplacement,
  CustomEntry,
  CustomMessageEntry,
  CustomMessageInput,
  LabelEntry,
  SessionInfoEntry,
  SessionStore,
} from "@arbor/session-store";
import { summarizeWithFallback } from "../compaction/summarize-with-fallback";
import type { CustomCompaction, RuntimeHooks } from "../events/runtime-hooks";
import { currentCompactionSettings, type SessionCore } from "../internal/session-core";
import { type ContextUsage, getContextUsage } from "../session/context-usage";
import { setSessionName } from "../session/set-session-name";
import type { EffectiveCompactionSettings } from "../settings/fit-compaction-settings";
import type { Settings } from "../settings/settings";
import { createExtensionModels } from "./create-extension-models";
import { createExtensionUi } from "./create-extension-ui";
import type { ExtensionUi } from "./extension-ui";
import type { ModelRegistry } from "./model-registry";

/** The read side of the session's store handed to extensions (no leaf moves, no appends). */
export type ReadonlySessionView = Pick<
  SessionStore,
  | "path"
  | "header"
  | "sessionId"
  | "leafId"
  | "getEntry"
  | "getEntries"
  | "getEntryCount"
  | "getLeafEntry"
  | "getBranch"
  | "getChildren"
  | "getTree"
  | "getLabel"
  | "getSessionName"
  | "getProjection"
>;

/** A read-only facade over the store: only the reading methods, bound to it. */
function readonlyView(store: SessionStore): ReadonlySessionView {
  return Object.freeze({
    get path() {
      return store.path;
    },
    get header() {
      return store.header;
    },
    get sessionId() {
      return store.sessionId;
    },
    get leafId() {
      return store.leafId;
    },
    getEntry: (id: string) => store.getEntry(id),
    getEntries: () => store.getEntries(),
    getEntryCount: () => store.getEntryCount(),
    getLeafEntry: () => store.getLeafEntry(),
    getBranch: (fromId?: string) => store.getBranch(fromId),
    getChildren: (parentId: string | null) => store.getChildren(parentId),
    getTree: () => store.getTree(),
    getLabel: (id: string) => store.getLabel(id),
    getSessionName: () => store.getSessionName(),
    getProjection: (leafId?: string | null) => store.getProjection(leafId),
  });
}

/**
 * What an extension's handlers can do with the session. Reads are synchronous snapshots; writes go
 * through the session lock: from inside a handler the session awaits, they apply at once; from
 * anywhere else they wait until the current operation (a run, a compaction, a navigation) ends.
 */
export interface ExtensionSessionHandle {
  /** Read access to the session's entries, tree and projection. Do not mutate what it returns. */
  readonly view: ReadonlySessionView;
  /** The session's current model. */
  getModel(): Model;
  /** The session's provider (requests through it pass `before_provider_request` too). */
  getProvider(): Provider;
  /** Context fill of the current leaf (see `session.getContextUsage`). */
  getContextUsage(): ContextUsage | undefined;
  /**
   * Compaction settings in effect for the current model (fitted to its context window, with
   * `scaledFrom` when scaled; see `session.getCompactionSettings`).
   */
  getCompactionSettings(): EffectiveCompactionSettings;
  /**
   * Appends a context edit (replace a message's content for the model, or hide it with `null`).
   * @throws SessionStoreError `CONTEXT_EDIT_INVALID` / `ENTRY_NOT_FOUND` for a bad target.
   */
  appendContextEdit(targetId: string, replacement: ContextEditReplacement | null): Promise<ContextEditEntry>;
  /**
   * Writes the summary the session's own compactions would write for `preparation` (its compactor,
   * else its summary model with the offline fallback, else the offline summarizer; a fallback emits
   * `compaction_fallback`) and appends nothing: for an extension that compacts at a point of its
   * choosing through a boundary's `compaction` draft. The result fits that draft as it is. With
   * `conversation` (the last request's system prompt, tools and messages, plus what followed) and a
   * summary model that is the session's, the summary is asked for as that conversation plus one
   * instruction, so a provider with prompt caching reads the conversation from its cache (see
   * `cacheSharingSummaryRequest` in `@arbor/compaction`); a custom compactor receives it too.
   * @throws CompactionError when the summary fails and there is no fallback, or on abort.
   */
  summarize(
    preparation: CompactionPreparation,
    options?: { signal?: AbortSignal; customInstructions?: string; conversation?: SummaryConversation },
  ): Promise<CustomCompaction>;
  /** Appends extension state (invisible to the model). */
  appendCustomEntry<T>(customType: string, data?: T): Promise<CustomEntry<T>>;
  /** Appends an extension message the model sees (role `custom`; pi's `sendMessage` when idle). */
  appendCustomMessage<T>(message: CustomMessageInput<T>): Promise<CustomMessageEntry<T>>;
  /**
   * Sets (or with `undefined` clears) the label of an entry (pi's `setLabel`).
   * @throws SessionStoreError `ENTRY_NOT_FOUND` for an unknown entry.
   */
  setLabel(entryId: string, label: string | undefined): Promise<LabelEntry>;
  /**
   * Names the session (pi's `pi.setSessionName`), as `session.setSessionName` does: appends a
   * `session_info` entry, then emits `session_info_changed`.
   * @throws RuntimeError `INVALID_ARGUMENT` when `name` is not a string.
   */
  setSessionName(name: string): Promise<SessionInfoEntry>;
}

/**
 * Compaction helpers handed to extensions: everything the seeds' custom-compaction recipes use, so
 * that an extension file imports types only and loads from any folder. The same functions
 * `@arbor/compaction` (and `convertToLlm` from `@arbor/agent-loop`) export.
 */
export interface ExtensionCompactionTools {
  /** Agent messages → provider messages (the recipe: `serializeConversation(convertToLlm(messages))`). */
  convertToLlm: typeof convertToLlm;
  /** Provider messages → the `[User]: …` / `[Assistant]: …` text a summarizer reads. */
  serializeConversation: typeof serializeConversation;
  /** What a compaction of a branch would summarize and keep (`session_before_compact` gets one). */
  prepareCompaction: typeof prepareCompaction;
  /** pi's cut point over raw entries. */
  findCutPoint: typeof findCutPoint;
  /** The cut point over the projected (edited) context, as `prepareCompaction` uses it. */
  findProjectedCutPoint: typeof findProjectedCutPoint;
  /** chars/4 estimate of one message. */
  estimateTokens: typeof estimateTokens;
  /** The default compaction (summary through a provider, turn prefix, file lists). */
  compact: typeof compact;
  /** One summary request through a provider. */
  generateSummary: typeof generateSummary;
  summarizeOffline: typeof summarizeOffline;
  computeFileLists: typeof computeFileLists;
  formatFileOperations: typeof formatFileOperations;
}

/**
 * The API an extension's `setup` receives from `createAgentSession`: the bus-bound `on` (handlers
 * carry the extension's name; failures and timeouts are isolated), plus the merged settings, the
 * session handle and the compaction helpers.
 */
export interface RuntimeExtensionApi extends ExtensionApi<RuntimeHooks> {
  /** The merged settings the session was created with (unknown keys included, for extension config). */
  readonly settings: Readonly<Settings>;
  readonly session: ExtensionSessionHandle;
  readonly compaction: ExtensionCompactionTools;
  /**
   * Every model the application knows (built-in catalogue, the user's declared models) and providers
   * for them with the user's keys: a summarizer on another provider needs no import. See
   * {@link ModelRegistry}; what it serves depends on the application (`createAgentSession`'s `models`).
   */
  readonly models: ModelRegistry;
  /** The user's screen: the run's mode, whether someone watches, and one-line notices. */
  readonly ui: ExtensionUi;
}

const COMPACTION_TOOLS: ExtensionCompactionTools = Object.freeze({
  convertToLlm,
  serializeConversation,
  prepareCompaction,
  findCutPoint,
  findProjectedCutPoint,
  estimateTokens,
  compact,
  generateSummary,
  summarizeOffline,
  computeFileLists,
  formatFileOperations,
});

/** Runs a write under the session lock, or at once when the caller is already inside the holder. */
function locked<T>(core: SessionCore, label: string, write: () => T | Promise<T>): Promise<T> {
  if (core.lock.isHeldByCaller()) return Promise.resolve().then(write);
  return core.lock.run(label, async () => write());
}

/** Builds the API for one extension from the bus-bound base API. */
export function createRuntimeExtensionApi(
  base: ExtensionApi<RuntimeHooks>,
  core: SessionCore,
): RuntimeExtensionApi {
  const session: ExtensionSessionHandle = {
    view: readonlyView(core.store),
    getModel: () => core.model,
    getProvider: () => core.provider,
    getContextUsage: () => getContextUsage(core),
    getCompactionSettings: () => currentCompactionSettings(core),
    appendContextEdit: (targetId, replacement) =>
      locked(core, "extension context edit", () => core.store.appendContextEdit(targetId, replacement)),
    summarize: async (preparation, options) => {
      const parts = await summarizeWithFallback(core, preparation, {
        reason: "threshold",
        signal: options?.signal ?? new AbortController().signal,
        ...(options?.customInstructions === undefined
          ? {}
          : { customInstructions: options.customInstructions }),
        ...(options?.conversation === undefined ? {} : { conversation: options.conversation }),
      });
      return {
        summary: parts.summary,
        firstKeptEntryId: parts.firstKeptEntryId,
        tokensBefore: parts.tokensBefore,
        details: parts.details,
        ...(parts.usage === undefined ? {} : { usage: parts.usage }),
      };
    },
    appendCustomEntry: (customType, data) =>
      locked(core, "extension custom entry", () => core.store.appendCustomEntry(customType, data)),
    appendCustomMessage: (message) =>
      locked(core, "extension custom message", () => core.store.appendCustomMessageEntry(message)),
    setLabel: (entryId, label) =>
      locked(core, "extension label", () => core.store.appendLabelChange(entryId, label)),
    setSessionName: (name) => locked(core, "extension session name", () => setSessionName(core, name)),
  };
  return {
    extensionId: base.extensionId,
    on: base.on,
    settings: core.settings,
    session,
    models: createExtensionModels(core),
    ui: createExtensionUi(core, base.extensionId),
    compaction: COMPACTION_TOOLS,
  };
}
