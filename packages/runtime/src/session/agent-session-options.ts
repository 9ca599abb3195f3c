import type { AgentMessage, AgentTool, ToolExecutionMode } from "@arbor/agent-loop";
import type { Compactor, TokenCounter } from "@arbor/compaction";
import type { ExtensionDefinition } from "@arbor/extensions";
import type { Model, Provider, ReasoningLevel, StreamOptions, TranscriptMessage } from "@arbor/providers";
import type { SessionStore } from "@arbor/session-store";
import type { SessionStartReason } from "../events/lifecycle-events";
import type { SessionMode } from "../extensions/extension-ui";
import type { ModelRegistry } from "../extensions/model-registry";
import type { PiExtensionFactory } from "../extensions/pi/pi-extension-api";
import type { RuntimeExtensionApi } from "../extensions/runtime-extension-api";
import type { Settings } from "../settings/settings";

/** Compaction options that are not settings (objects, not JSON). */
export interface SessionCompactionOptions {
  /**
   * Provider for summaries (compaction and branch summaries). Default: the session's provider.
   * Thresholds and budgets always follow the session's model; only the summary call switches.
   * `null`: no summary model at all, the offline summarizer writes every summary.
   */
  provider?: Provider | null;
  /** Model for summaries. Default: the session's current model. */
  model?: Model;
  /**
   * Most automatic compactions in a row without a successful response between them (the loop
   * guard's cap). When reached, the run stops with `COMPACTION_LOOP_GUARD`. Default 3.
   */
  maxConsecutiveAutoCompactions?: number;
  /** Token counter for thresholds, cut points and usage. Default: pi's chars/4. */
  tokenCounter?: TokenCounter;
  /**
   * Writes compaction and branch summaries instead of the built-in model-then-offline summarizer
   * (see `Compactor` in `@arbor/compaction`). An extension's `session_before_compact` result still
   * wins over it.
   */
  compactor?: Compactor;
}

/** Options of {@link createAgentSession}. */
export interface CreateAgentSessionOptions {
  /** The session's entries. The session appends to it; closing it stays the caller's job. */
  store: SessionStore;
  /** The model requests go to (switch later with `setModel`). */
  model: Model;
  /** The backend that serves `model`. */
  provider: Provider;
  /** Tools the model may call. */
  tools?: AgentTool[];
  /** Default scheduling of tool calls. Default `"parallel"`. */
  toolExecution?: ToolExecutionMode;
  /**
   * System prompt sent with every request (the agent loop's `systemPrompt`); system messages in the
   * transcript are sent as well.
   */
  systemPrompt?: string | (() => string | undefined | Promise<string | undefined>);
  /** Merged settings (see `loadSettings`). Default `{}` (every documented default). */
  settings?: Settings;
  /**
   * Extensions to install, in order: definitions, pi-style factories (`(pi) => { pi.on(…) }`, given
   * a `PiExtensionApi`), or paths of extension files (absolute, or relative to `process.cwd()`),
   * loaded with `loadExtensionFromFile` (a file may default-export either kind).
   */
  extensions?: Array<ExtensionDefinition<RuntimeExtensionApi> | PiExtensionFactory | string>;
  /**
   * `reason` of the `session_start` event extensions receive once the session is ready. Default
   * `"startup"`. Sessions made by `session.fork()` start with `"fork"`.
   */
  startReason?: SessionStartReason;
  /** `previousSessionFile` of the `session_start` event (the file the application came from). */
  previousSessionFile?: string;
  /**
   * Timeout of extensions in ms: importing each extension file, each `setup`, and each handler call
   * (`EXTENSION_TIMEOUT` for the first two, a `HOOK_TIMEOUT` hook error for a handler). Default:
   * `settings.extensionTimeoutMs`, else 30000.
   */
  extensionTimeoutMs?: number;
  /** Reasoning effort. Default: `settings.defaultThinkingLevel`, else unset (the model's default). */
  thinkingLevel?: ReasoningLevel;
  /**
   * Passed to every `provider.stream` call of the loop (the session supplies `signal` and `reasoning`).
   * `sessionId` (OpenAI's `prompt_cache_key`) defaults to the store's `sessionId`, also for summary
   * requests sent to this provider, so that one session's requests reach the same prompt cache; a
   * forked session sends its own id. To send no cache key, set `cacheRetention: "none"` (no cache
   * writes at all) or use a model with `compat.supportsPromptCaching: false`.
   */
  streamOptions?: Omit<StreamOptions, "signal">;
  /** Compaction objects (summary provider and model, loop guard cap, token counter). */
  compaction?: SessionCompactionOptions;
  /**
   * Removes secrets from error texts before they are written to the session file: the
   * `errorMessage` of every assistant message this session appends goes through it (the message
   * object is updated in place, so listeners and extensions see the redacted text too). Providers
   * of `@arbor/providers` already redact their own key; this covers other keys in use and custom
   * providers. Typically `(text) => redactor.redact(text)` with a `createSecretRedactor` of
   * `@arbor/providers`. Default: texts are written as they are.
   *
   * Contract: pure, fast (it runs on the write path), must not throw; a throw is treated as a
   * failed write of the message.
   */
  redactText?: (text: string) => string;
  /**
   * Replaces the loop's `convertToLlm` seam (default: `convertToLlm` from `@arbor/agent-loop`).
   *
   * Contract: as the loop's seam: must not throw, must not mutate its input.
   */
  convertToLlm?: (messages: readonly AgentMessage[]) => TranscriptMessage[] | Promise<TranscriptMessage[]>;
  /**
   * The models extensions may use (`api.models`), with providers carrying the user's keys (see
   * `createCatalogueModelRegistry`). Default: the built-in catalogue, served only for the session
   * model's provider and API, through the session's own provider.
   */
  models?: ModelRegistry;
  /** How the application runs the session (`api.ui.mode`; `hasUI` is true for `interactive`). Default `library`. */
  mode?: SessionMode;
}
