import { copyPlainData, HookError } from "@arbor/extensions";
import type {
  AgentActivityOutcome,
  AgentBeforeSettleEvent,
  BoundaryState,
  TurnEndEvent,
} from "../events/boundary-events";
import { deliverToListeners, type SessionCore } from "../internal/session-core";
import {
  appendBoundaryDrafts,
  buildBoundaryPreview,
  copyBoundaryPreview,
  deferBoundaryPreview,
  shareBoundaryPreview,
} from "./boundary-preview";
import { previewStore } from "./preview-store";

type BoundaryEvent = TurnEndEvent | AgentBeforeSettleEvent;

/** What a boundary decided once its handlers ran and its drafts were appended. */
export interface BoundaryOutcome<E extends BoundaryEvent> {
  /** The final event (drafts, `continue`, the preview after the drafts). */
  event: E;
  /** True when a handler asked for one more request and the context can continue. */
  continue: boolean;
  /** True when at least one compaction draft was appended. */
  compacted: boolean;
}

/**
 * Runs a boundary hook (`turn_end` or `agent_before_settle`) the way pi does: handlers run in order,
 * each sees the drafts and `continue` of the ones before it and a preview of the next request with
 * those drafts applied; a returned `entries` / `continue` replaces the field. Each result is checked
 * by applying its drafts to an in-memory copy of the branch: a draft the store refuses, a bad shape,
 * or a `continue` the preview cannot honour makes the result a `HOOK_INVALID_RESULT` hook error
 * naming the extension, and nothing of that result is used. Then the drafts are appended to the
 * session in order (a compaction draft with `fromHook: true`). `turn_end` is delivered to listeners
 * afterwards, with the final state; `agent_before_settle` is for extensions only.
 *
 * The caller holds the session lock. Never throws for a handler; rejects only when the store does.
 */
export async function runBoundary<E extends BoundaryEvent>(
  core: SessionCore,
  base: Omit<E, keyof BoundaryState>,
  outcome: AgentActivityOutcome,
  signal: AbortSignal,
): Promise<BoundaryOutcome<E>> {
  const name = base.type;
  const handled = core.bus.listenerCount(name) > 0;
  const event = { ...base, entries: [], continue: false, outcome } as unknown as E;
  if (handled) {
    // Each handler gets its own copy of the preview (the bus copies the event for each); the
    // session's objects are only read to make those copies.
    const shared = await shareBoundaryPreview(core, core.store, outcome);
    event.context = shared;
    await (core.bus.intercept as (n: string, e: unknown, o: unknown) => Promise<unknown>)(name, event, {
      signal,
      validateResult: (result: unknown) => chain(core, event, result),
      copyEvent: copyBoundaryEvent,
    });
    // Listeners get a copy too (read as a plain value: a getter left by `chain` stays unread).
    if (Object.getOwnPropertyDescriptor(event, "context")?.value === shared) {
      defineDeferredContext(event, () => copyBoundaryPreview(shared));
    }
  } else if (core.options.convertToLlm !== undefined && name === "turn_end" && core.listeners.size > 0) {
    event.context = await buildBoundaryPreview(core, core.store, outcome);
  } else {
    // No handler reads the preview now: make it when (and if) a listener reads it.
    defineDeferredContext(event, deferBoundaryPreview(core, core.store, outcome));
  }
  let compacted = false;
  if (event.entries.length > 0) {
    try {
      appendBoundaryDrafts(core, core.store, event.entries);
      compacted = event.entries.some((draft) => draft.type === "compaction");
    } catch (error) {
      const message = `The drafts of "${name}" could not be appended: ${error instanceof Error ? error.message : String(error)}`;
      const failure = new HookError("HOOK_INVALID_RESULT", message, {
        hookName: name,
        extensionId: undefined,
      });
      deliverToListeners(core, {
        type: "hook_error",
        error: failure,
        hookName: name,
        extensionId: undefined,
      });
    }
  }
  if (event.type === "turn_end") deliverToListeners(core, event as TurnEndEvent);
  return { event, continue: event.continue && event.context.canContinue, compacted };
}

/**
 * Makes `event.context` a property that builds the preview on its first read (see
 * `deferBoundaryPreview`); it reads, copies and spreads like a plain property, and a write replaces it.
 * With a `convertToLlm` of the session's own (which may be asynchronous), a preview no one can read
 * is never built: `agent_before_settle` is for handlers only, and `turn_end` without listeners.
 */
function defineDeferredContext(event: BoundaryEvent, build: () => BoundaryEvent["context"]): void {
  let value: BoundaryEvent["context"] | undefined;
  Object.defineProperty(event, "context", {
    enumerable: true,
    configurable: true,
    get: () => {
      value ??= build();
      return value;
    },
    set: (next: BoundaryEvent["context"]) => {
      value = next;
    },
  });
}

/** A handler's copy of a boundary event: the preview's parts copied apart, the rest as the bus would. */
function copyBoundaryEvent(value: unknown): unknown {
  const { context, ...rest } = value as BoundaryEvent;
  return { ...copyPlainData(rest), context: copyBoundaryPreview(context) };
}

/** Checks one handler's result and, when it is valid, makes it the running state of `event`. */
async function chain(core: SessionCore, event: BoundaryEvent, result: unknown): Promise<string | undefined> {
  if (result === undefined) return undefined;
  if (typeof result !== "object" || result === null)
    return "the result must be an object like { entries, continue }";
  const { entries, continue: goOn } = result as { entries?: unknown; continue?: unknown };
  if (goOn !== undefined && typeof goOn !== "boolean") return "continue must be a boolean";
  // The preview with the drafts applied: built now with a `convertToLlm` of the session's own, else
  // when first read (to check `continue`, by the bus copying the event for the next handler, or by a
  // `turn_end` listener).
  let context: BoundaryEvent["context"] | undefined;
  let build: (() => BoundaryEvent["context"]) | undefined;
  if (entries !== undefined) {
    const store = previewStore(core);
    try {
      appendBoundaryDrafts(core, store, entries);
    } catch (error) {
      return `nothing appended: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (core.options.convertToLlm === undefined) build = deferBoundaryPreview(core, store, event.outcome);
    else context = await buildBoundaryPreview(core, store, event.outcome);
  }
  if (goOn === true) {
    if (build !== undefined) {
      const built = build();
      build = () => built;
      context = built;
    }
    const next = context ?? event.context;
    if (!next.canContinue) {
      return `continue: true, but the context cannot continue (${whyNot(event.outcome, next.llmMessages.length)}); nothing appended`;
    }
  }
  if (entries !== undefined) event.entries = structuredClone(entries as BoundaryEvent["entries"]);
  if (goOn !== undefined) event.continue = goOn;
  if (build !== undefined) defineDeferredContext(event, build);
  else if (context !== undefined) event.context = context;
  return undefined;
}

function whyNot(outcome: AgentActivityOutcome, messageCount: number): string {
  if (outcome !== "completed") return `the activity ended as "${outcome}"`;
  if (messageCount === 0) return "there is no message to answer";
  return "its last message is an assistant message and nothing is pending";
}
