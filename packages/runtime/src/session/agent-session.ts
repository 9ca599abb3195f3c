import type { AgentMessage } from "@arbor/agent-loop";
import type { ImageContent, Model, Provider, ReasoningLevel, TextContent } from "@arbor/providers";
import type { SessionInfoEntry, SessionStore } from "@arbor/session-store";
import { compactManually } from "../compaction/compact-manually";
import type { SessionShutdownReason } from "../events/lifecycle-events";
import type { AgentSessionEvent, SessionCompactionResult } from "../events/session-events";
import { wrapProvider } from "../extensions/wrap-provider";
import { assertLifecycleReason } from "../internal/assert-lifecycle-reason";
import { emitLifecycleEvent } from "../internal/emit-lifecycle-event";
import { createEventIterator } from "../internal/event-iterator";
import { createRunState } from "../internal/run-state";
import {
  type AgentSessionListener,
  currentCompactionSettings,
  deliverToListeners,
  notify,
  runLocked,
  type SessionCore,
} from "../internal/session-core";
import { type NavigateOptions, type NavigateResult, navigateTree } from "../navigation/navigate-tree";
import { RuntimeError } from "../runtime-error";
import type { EffectiveCompactionSettings } from "../settings/fit-compaction-settings";
import type { Settings } from "../settings/settings";
import { type ContextUsage, getContextUsage } from "./context-usage";
import { type ForkOptions, type ForkResult, forkSession } from "./fork-session";
import { type PromptResult, runPrompt } from "./run-prompt";
import { getSessionStats, type SessionStats } from "./session-stats";
import { setSessionName } from "./set-session-name";

/** What a prompt or a queued message can hold: text, or text and image blocks. */
export type PromptInput = string | Array<TextContent | ImageContent>;

function userMessage(input: PromptInput): AgentMessage {
  return {
    role: "user",
    content: typeof input === "string" ? [{ type: "text", text: input }] : input,
    timestamp: Date.now(),
  };
}

/**
 * An agent session: the agent loop over a session store, with compaction, overflow recovery, tree
 * navigation and extensions. Create it with `createAgentSession`.
 *
 * Concurrency: operations that change the tree (`prompt`, `compact`, `navigate`, `fork`, `setModel`,
 * `setThinkingLevel`, `setSessionName`, extension appends) run one at a time, in call order (a FIFO
 * lock), so a compaction and a navigation never write at the same time. A second `prompt()` while one runs is
 * refused (`SESSION_BUSY`): use `steer()` / `followUp()`. A session method awaited from inside an
 * operation (an extension handler calling `session.compact()` during a compaction) is refused with
 * `SESSION_BUSY` instead of deadlocking.
 */
export class AgentSession {
  private promptActive = false;
  private disposing: Promise<void> | undefined;

  /** @internal Use `createAgentSession`. */
  constructor(
    private readonly core: SessionCore,
    private readonly teardown: () => void,
    private readonly forkWith: (store: SessionStore) => Promise<AgentSession>,
  ) {}

  /** The session's store (read it freely; append through the session while it is in use). */
  get store(): SessionStore {
    return this.core.store;
  }
  /** The model requests go to. */
  get model(): Model {
    return this.core.model;
  }
  /** The reasoning level sent with requests (undefined: the model's default). */
  get thinkingLevel(): ReasoningLevel | undefined {
    return this.core.thinkingLevel;
  }
  /** The merged settings. */
  get settings(): Readonly<Settings> {
    return this.core.settings;
  }
  /** True while a `prompt()` is in progress (queued or running). */
  get isRunning(): boolean {
    return this.promptActive;
  }
  /** The operation holding the session now (`prompt`, `compact`, `navigate`, …), or undefined when idle. */
  get activity(): string | undefined {
    return this.core.lock.current;
  }

  /**
   * Calls `listener` for every event (see the README's event catalogue for payloads and order).
   * Listeners run synchronously after extensions; one that throws is reported as a process warning
   * and skipped. Notices extensions sent while no listener was subscribed (`api.ui.notify` in
   * `session_start`) are delivered to this listener first. Returns the unsubscribe function.
   */
  subscribe(listener: (event: AgentSessionEvent) => void): () => void {
    this.core.listeners.add(listener as AgentSessionListener);
    // Notices sent before anyone listened (an extension's `session_start`, say) go to this listener.
    for (const held of this.core.heldNotices.splice(0)) deliverToListeners(this.core, held);
    return () => this.core.listeners.delete(listener as AgentSessionListener);
  }

  /** The same events as an async iterator; `break` unsubscribes. */
  events(): AsyncIterableIterator<AgentSessionEvent> {
    return createEventIterator((listener) => this.subscribe(listener));
  }

  /**
   * Sends a user message and runs the agent until it stops: tool calls, threshold compaction between
   * turns, overflow / truncation recovery (one compact-and-retry). Resolves when the session is idle
   * again; model failures resolve too (see `lastAssistant.stopReason`), and the session's own stops
   * are in `result.error`.
   *
   * @throws RuntimeError `SESSION_BUSY` (a prompt is running, or called from inside an operation),
   * `SESSION_DISPOSED`; store errors (a failed write) as thrown.
   */
  async prompt(input: PromptInput): Promise<PromptResult> {
    this.assertCallable("prompt");
    if (this.promptActive) {
      throw new RuntimeError(
        "SESSION_BUSY",
        "A prompt is already running: use steer() or followUp(), or abort() first",
      );
    }
    this.promptActive = true;
    try {
      return await runLocked(this.core, "prompt", (signal) =>
        runPrompt(
          this.core,
          createRunState(
            signal,
            this.core.options.compaction?.maxConsecutiveAutoCompactions ??
              this.core.settings.compaction?.maxConsecutiveAutoCompactions,
          ),
          [userMessage(input)],
        ),
      );
    } finally {
      this.promptActive = false;
    }
  }

  /** Queues a message that interrupts the running agent after its current tool calls. */
  steer(input: PromptInput): void {
    this.assertUsable();
    this.core.steering.push(userMessage(input));
  }

  /** Queues a message handled once the running agent would stop. */
  followUp(input: PromptInput): void {
    this.assertUsable();
    this.core.followUps.push(userMessage(input));
  }

  /**
   * Aborts what runs now (a prompt's stream and tools, a compaction, a branch summary) and every
   * operation queued before this call; resolves when they have settled. Never throws.
   */
  async abort(): Promise<void> {
    this.abortNow();
    if (this.core.lock.isHeldByCaller()) return;
    await this.core.lock.idle();
  }

  /**
   * Compacts now (reason `manual`), after aborting the current run, with optional focus instructions.
   *
   * @throws RuntimeError `NOTHING_TO_COMPACT`, `ALREADY_COMPACTED`, `COMPACTION_CANCELLED`,
   * `COMPACTION_FAILED` (the session is unchanged), `SESSION_BUSY`, `SESSION_DISPOSED`.
   */
  async compact(customInstructions?: string): Promise<SessionCompactionResult> {
    this.assertCallable("compact");
    this.abortNow();
    return runLocked(this.core, "compact", (signal) =>
      compactManually(this.core, customInstructions, signal),
    );
  }

  /**
   * Moves to another point of the tree (pi's `/tree`), optionally summarizing the branch being
   * left. Waits for the current operation (call `abort()` first to stop a running prompt).
   *
   * @throws RuntimeError `ENTRY_NOT_FOUND`, `BRANCH_SUMMARY_FAILED`, `SESSION_BUSY`, `SESSION_DISPOSED`.
   */
  async navigate(targetId: string, options: NavigateOptions = {}): Promise<NavigateResult> {
    this.assertCallable("navigate");
    return runLocked(this.core, "navigate", (signal) => navigateTree(this.core, targetId, options, signal));
  }

  /**
   * Starts a new session file from a point of this one (see {@link ForkOptions}); this session is
   * unchanged. The new session has the same model, provider, tools, settings and extensions.
   *
   * Events: `session_before_fork {entryId, position}` here, once the arguments are valid (it may
   * cancel); then `session_start {reason: "fork", previousSessionFile: this file}` on the new
   * session. Unlike pi, which replaces its runtime on fork, this session stays usable and gets no
   * `session_shutdown`: dispose it yourself when you switch to the new one.
   *
   * @throws RuntimeError `ENTRY_NOT_FOUND`, `INVALID_ARGUMENT`, `FORK_CANCELLED` (an extension
   * cancelled, or `abort()` stopped it during `session_before_fork`; nothing was created),
   * `SESSION_BUSY`, `SESSION_DISPOSED`; store errors as thrown.
   */
  async fork(options: ForkOptions = {}): Promise<ForkResult> {
    this.assertCallable("fork");
    return runLocked(this.core, "fork", (signal) => forkSession(this.core, options, signal, this.forkWith));
  }

  /**
   * Names the session (pi's `setSessionName`): appends a `session_info` entry (newlines collapse to a
   * space, the name is trimmed; an empty name clears it), then emits `session_info_changed` with the
   * stored name. Waits for the current operation. Resolves the entry written.
   *
   * @throws RuntimeError `INVALID_ARGUMENT` (not a string), `SESSION_DISPOSED`; store errors as thrown.
   */
  async setSessionName(name: string): Promise<SessionInfoEntry> {
    this.assertUsable();
    if (this.core.lock.isHeldByCaller()) return setSessionName(this.core, name);
    return runLocked(this.core, "set session name", async () => setSessionName(this.core, name));
  }

  /**
   * Switches the model for the next requests, appends a `model_change` entry, then emits `model_select`. Pass `provider` when
   * the new model needs another backend. Waits for the current operation.
   */
  async setModel(model: Model, options: { provider?: Provider } = {}): Promise<void> {
    return this.change("set model", async () => {
      const previousModel = this.core.model;
      this.core.model = model;
      if (options.provider !== undefined) {
        this.core.baseProvider = options.provider;
        this.core.provider = wrapProvider(options.provider, this.core.bus);
      }
      this.core.store.appendModelChange(model.provider, model.id);
      await notify(this.core, { type: "model_select", model, previousModel, source: "set" });
    });
  }

  /** Sets the reasoning level for the next requests and appends a `thinking_level_change` entry. */
  async setThinkingLevel(level: ReasoningLevel): Promise<void> {
    return this.change("set thinking level", async () => {
      this.core.thinkingLevel = level;
      this.core.store.appendThinkingLevelChange(level);
    });
  }

  /**
   * The compaction settings in effect for the current model: the settings' values with its per-model
   * override, fitted to its context window (`scaledFrom` says when they were scaled down to fit, see
   * `fitCompactionSettings`). The threshold is `contextWindow - reserveTokens`. Never throws.
   */
  getCompactionSettings(): EffectiveCompactionSettings {
    return currentCompactionSettings(this.core);
  }

  /** Context fill of the current leaf, for a status line (`undefined` without a context window). */
  getContextUsage(): ContextUsage | undefined {
    return getContextUsage(this.core);
  }

  /** Entry counts, token and cost totals of the whole session. Reads every entry. */
  getSessionStats(): SessionStats {
    return getSessionStats(this.core);
  }

  /**
   * Shuts the session down: refuses new operations (`SESSION_DISPOSED`), aborts what runs and waits
   * for it, emits `session_shutdown {reason, targetSessionFile?}` to the extensions (under the session
   * lock: their appends still apply), then uninstalls the extensions and drops the listeners. The
   * store stays open (the caller owns it). Idempotent: later calls resolve with the first one and
   * emit nothing.
   *
   * @param reason pi's shutdown reason (default `"quit"`); `targetSessionFile`: where the
   * application goes next, passed on in the event.
   * @throws RuntimeError `INVALID_ARGUMENT` for an unknown `reason` (nothing is done then).
   */
  async dispose(reason: SessionShutdownReason = "quit", targetSessionFile?: string): Promise<void> {
    if (this.disposing === undefined) {
      assertLifecycleReason("dispose(reason)", reason);
      this.disposing = this.shutDown(reason, targetSessionFile);
    }
    return this.disposing;
  }

  private async shutDown(reason: SessionShutdownReason, targetSessionFile: string | undefined) {
    this.core.disposed = true;
    try {
      await this.abort();
      await emitLifecycleEvent(this.core, {
        type: "session_shutdown",
        reason,
        ...(targetSessionFile === undefined ? {} : { targetSessionFile }),
      });
    } finally {
      this.teardown();
      this.core.listeners.clear();
    }
  }

  /** Aborts the running operation and every one queued so far, without waiting. */
  private abortNow(): void {
    this.core.abortEpoch++;
    this.core.steering.length = 0;
    this.core.followUps.length = 0;
    this.core.activeAbort?.abort(new Error("aborted by the user"));
  }

  private change(label: string, write: () => Promise<void>): Promise<void> {
    this.assertUsable();
    if (this.core.lock.isHeldByCaller()) return write();
    return runLocked(this.core, label, write);
  }

  private assertUsable(): void {
    if (this.core.disposed) throw new RuntimeError("SESSION_DISPOSED", "The session was disposed");
  }

  private assertCallable(what: string): void {
    this.assertUsable();
    if (this.core.lock.isHeldByCaller()) {
      throw new RuntimeError(
        "SESSION_BUSY",
        `session.${what}() was called from inside the session's ${this.core.lock.current ?? "current"} operation (an extension handler?); it would wait for itself`,
      );
    }
  }
}
