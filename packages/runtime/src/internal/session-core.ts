import type { AgentEvent, AgentMessage } from "@arbor/agent-loop";
import { defaultTokenCounter, resolveCompactionSettings, type TokenCounter } from "@arbor/compaction";
import type { HookBus } from "@arbor/extensions";
import type { Model, Provider } from "@arbor/providers";
import type { SessionStore } from "@arbor/session-store";
import type { RuntimeHooks } from "../events/runtime-hooks";
import type { AgentSessionEvent, ExtensionNoticeEvent, SessionNotification } from "../events/session-events";
import type { CreateAgentSessionOptions } from "../session/agent-session-options";
import { type EffectiveCompactionSettings, fitCompactionSettings } from "../settings/fit-compaction-settings";
import type { Settings } from "../settings/settings";
import type { SessionLock } from "./session-lock";

/** A listener of `session.subscribe`. */
export type AgentSessionListener = (event: AgentSessionEvent) => void;

/**
 * State shared by the session's modules (prompt runs, compaction, navigation). Internal: the public
 * surface is `AgentSession`.
 */
export interface SessionCore {
  readonly store: SessionStore;
  readonly bus: HookBus<RuntimeHooks>;
  readonly lock: SessionLock;
  readonly settings: Settings;
  readonly options: CreateAgentSessionOptions;
  /** The provider the loop uses (wrapped for `before_provider_request`). */
  provider: Provider;
  /** The same provider unwrapped (what a fork starts with). */
  baseProvider: Provider;
  /** The provider summaries use (wrapped too); `undefined` means offline summaries only. */
  summaryProvider: Provider | undefined;
  model: Model;
  thinkingLevel: CreateAgentSessionOptions["thinkingLevel"];
  readonly tokenCounter: TokenCounter;
  readonly listeners: Set<AgentSessionListener>;
  /**
   * `extension_notice` events sent while no listener was subscribed (in `session_start`, say), at
   * most {@link HELD_NOTICES_LIMIT}; the next subscriber gets them first.
   */
  readonly heldNotices: AgentSessionEvent[];
  /** Persisted entry id of each message this process appended. */
  readonly entryIds: WeakMap<object, string>;
  /** Steering and follow-up messages waiting for the loop. */
  readonly steering: AgentMessage[];
  readonly followUps: AgentMessage[];
  /** Aborts whatever holds the lock now (a run, a compaction, a summary). */
  activeAbort: AbortController | undefined;
  /** Bumped by `abort()`: operations queued before it start already aborted. */
  abortEpoch: number;
  /** pi's `_overflowRecoveryAttempted`: one compact-and-retry per failure streak. */
  overflowRecoveryAttempted: boolean;
  /**
   * Id of the latest automatic compaction that left the context above the threshold. While it is
   * still the branch's latest compaction, threshold compaction is skipped (the loop guard).
   */
  stalledCompactionId: string | undefined;
  disposed: boolean;
}

/** Creates the shared state; `provider` and `summaryProvider` are set by the caller after wrapping. */
export function createSessionCore(
  options: CreateAgentSessionOptions,
  bus: HookBus<RuntimeHooks>,
  lock: SessionLock,
): SessionCore {
  return {
    store: options.store,
    bus,
    lock,
    settings: options.settings ?? {},
    options,
    provider: options.provider,
    baseProvider: options.provider,
    summaryProvider:
      options.compaction?.provider === null ? undefined : (options.compaction?.provider ?? options.provider),
    model: options.model,
    thinkingLevel: options.thinkingLevel ?? options.settings?.defaultThinkingLevel,
    tokenCounter: options.compaction?.tokenCounter ?? defaultTokenCounter,
    listeners: new Set(),
    heldNotices: [],
    entryIds: new WeakMap(),
    steering: [],
    followUps: [],
    activeAbort: undefined,
    abortEpoch: 0,
    overflowRecoveryAttempted: false,
    stalledCompactionId: undefined,
    disposed: false,
  };
}

/**
 * The compaction settings for the current model: per-model overrides applied, then fitted to its
 * context window (`fitCompactionSettings`).
 */
export function currentCompactionSettings(core: SessionCore): EffectiveCompactionSettings {
  const configured = resolveCompactionSettings(core.settings.compaction, {
    provider: core.model.provider,
    id: core.model.id,
  });
  return fitCompactionSettings(configured, core.model.contextWindow);
}

/**
 * Delivers an event: extensions first (awaited; the bus isolates their failures), then listeners
 * (synchronously, in subscription order). `hook_error` goes to listeners only.
 */
export async function notify(
  core: SessionCore,
  event: Exclude<AgentEvent, { type: "turn_end" }> | Exclude<SessionNotification, ExtensionNoticeEvent>,
): Promise<void> {
  if (event.type !== "hook_error" && core.bus.listenerCount(event.type) > 0) {
    await (core.bus.emit as (name: string, event: unknown) => Promise<unknown>)(event.type, event);
  }
  deliverToListeners(core, event);
}

/** Calls every listener with `event`; a listener that throws is reported as a process warning. */
export function deliverToListeners(core: SessionCore, event: AgentSessionEvent): void {
  for (const listener of [...core.listeners]) {
    try {
      listener(event);
    } catch (error) {
      process.emitWarning(
        `@arbor/runtime: a session listener threw on "${event.type}": ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** How many notices {@link holdOrDeliverNotice} keeps for a listener that has not subscribed yet. */
export const HELD_NOTICES_LIMIT = 50;

/**
 * Delivers an `extension_notice` to the listeners, or, while there is none, keeps it for the next
 * one to subscribe (the first {@link HELD_NOTICES_LIMIT}; later ones become one process warning each).
 */
export function holdOrDeliverNotice(core: SessionCore, event: AgentSessionEvent): void {
  if (core.listeners.size > 0) deliverToListeners(core, event);
  else if (core.heldNotices.length < HELD_NOTICES_LIMIT) core.heldNotices.push(event);
  else if (event.type === "extension_notice") process.emitWarning(event.message);
}

/**
 * Runs `operation` under the session lock with its own abort controller (`core.activeAbort`). An
 * operation queued before an `abort()` starts with an aborted signal. Resolves once the store has
 * acknowledged every entry appended (`store.flush()`); a failed flush rejects with the store's error.
 */
export function runLocked<T>(
  core: SessionCore,
  label: string,
  operation: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const epoch = core.abortEpoch;
  return core.lock.run(label, async () => {
    const controller = new AbortController();
    if (epoch !== core.abortEpoch) controller.abort(new Error("aborted before it started"));
    core.activeAbort = controller;
    try {
      const result = await operation(controller.signal);
      // The acknowledgement of an asynchronous store (PostgreSQL): what the operation appended is
      // durable before it resolves (resolves at once for JSONL, whose append already was).
      await core.store.flush();
      return result;
    } finally {
      if (core.activeAbort === controller) core.activeAbort = undefined;
    }
  });
}
