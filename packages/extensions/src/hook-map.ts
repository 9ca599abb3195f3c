import type { HookError } from "./hook-error";

/**
 * One entry of a hook map: the event a handler receives and the result it may return.
 *
 * - A **notification** has `result: undefined` (or `void`): handlers observe, their return values are
 *   ignored.
 *   Name notifications `<noun>_<action>` in snake_case (`turn_start`, `compaction_end`).
 * - An **interceptor** has an object result type, usually `{ cancel?: boolean; <replacement>?: T }`:
 *   handlers may cancel the operation or hand back a replacement. Name interceptors in snake_case
 *   too, `before_<action>` / `<thing>` (`session_before_compact`, `context`), as pi does.
 */
export interface HookSpec {
  event: unknown;
  result: unknown;
}

/**
 * The constraint a hook map satisfies: every key maps to a {@link HookSpec}. Written as a mapped
 * type so plain interfaces qualify (they have no index signature):
 *
 * ```ts
 * interface MyHooks {
 *   "turn_start": { event: { turnIndex: number }; result: undefined };
 *   beforeCompact: { event: { tokens: number }; result: { cancel?: boolean; summary?: string } };
 * }
 * const bus = createHookBus<MyHooks>();
 * ```
 */
export type HookMap<M> = { [K in keyof M]: HookSpec };

/** The event a `hook_error` handler receives: a handler failed or timed out. */
export interface HookErrorEvent {
  /** The failure, with code `HOOK_FAILED`, `HOOK_TIMEOUT` or `HOOK_INVALID_RESULT`. */
  error: HookError;
  /** Name of the hook or event whose handler failed. */
  hookName: string;
  /** Id of the extension that registered the failing handler, when it gave one. */
  extensionId: string | undefined;
}

/** Hooks every bus has besides the ones in its map. */
export interface BuiltinHooks {
  /**
   * A handler threw, rejected or timed out. Notification: handlers return nothing. A `hook_error`
   * handler that fails itself is not reported again here (see `CreateHookBusOptions.onUnreported`).
   */
  hook_error: { event: HookErrorEvent; result: undefined };
}

/** Names of `M` whose handlers return nothing (`result` is `undefined` or `void`): the ones `emit` dispatches. */
export type NotificationName<M> = {
  // biome-ignore lint/suspicious/noConfusingVoidType: `void` here matches both `void` and `undefined` results
  [K in keyof M]: M[K] extends { result: infer R } ? ([R] extends [void] ? K : never) : never;
}[keyof M] &
  string;

/** Names of `M` whose handlers may return a result: the ones `intercept` dispatches. */
export type InterceptorName<M> = {
  // biome-ignore lint/suspicious/noConfusingVoidType: `void` here matches both `void` and `undefined` results
  [K in keyof M]: M[K] extends { result: infer R } ? ([R] extends [void] ? never : K) : never;
}[keyof M] &
  string;

/** The event type of hook `K`. */
export type HookEvent<M, K extends keyof M> = M[K] extends { event: infer E } ? E : never;

/** The result type of hook `K` (`undefined` or `void` for notifications). */
export type HookResult<M, K extends keyof M> = M[K] extends { result: infer R } ? R : never;

/** What the bus hands every handler besides the event. */
export interface HookContext<R = unknown> {
  /** Name of the hook being dispatched. */
  hookName: string;
  /** Id the handler was registered with, if any. */
  extensionId: string | undefined;
  /**
   * Aborted when the handler's timeout elapses (reason: a `HOOK_TIMEOUT` {@link HookError}) or when
   * the dispatch's own signal aborts. A handler doing slow work should pass it on and stop early.
   */
  signal: AbortSignal;
  /**
   * For interceptors: the running result so far (the last non-undefined return of an earlier
   * handler), `undefined` when none returned one. Always `undefined` for notifications.
   */
  previousResult: R | undefined;
}

/**
 * A handler for hook `K`.
 *
 * Contract: may be sync or async. It may throw or reject: the bus isolates the failure, reports it
 * as a `hook_error` event and continues with the next handler as if this one had returned
 * `undefined`. It should honour `context.signal`; a handler that does not settle within its timeout
 * is abandoned (its late result is ignored). It must not mutate the event unless the hook's own
 * documentation allows it: by default the bus passes the same event object to every handler; a bus
 * made with `copyEvents` hands each handler its own copy, so mutating it changes nothing else.
 *
 * A synchronous handler that never returns (a busy loop) cannot be stopped: JavaScript runs one
 * thing at a time in a thread, so the timeout never gets to fire and the whole process hangs.
 * Timeouts only cover handlers that wait (promises, I/O, timers).
 */
export type HookHandler<M, K extends keyof M> = (
  event: HookEvent<M, K>,
  context: HookContext<HookResult<M, K>>,
) => HandlerReturn<HookResult<M, K>>;

/**
 * What a handler may return: nothing for a notification, else a result or nothing (`undefined`, or a
 * function without `return`, as pi's handlers are typed: no opinion).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler may end without `return` (pi's handlers are typed so)
type NoResult = void | undefined;

// biome-ignore lint/suspicious/noConfusingVoidType: notification handlers are plain void functions
export type HandlerReturn<R> = [R] extends [void]
  ? void | Promise<void>
  : R | NoResult | Promise<R | NoResult>;

/** Options of `HookBus.on`. */
export interface HookSubscribeOptions {
  /** Id of the extension registering the handler; named in `hook_error` events. */
  extensionId?: string;
  /**
   * Milliseconds the handler may run before it is abandoned with a `HOOK_TIMEOUT` error. Defaults to
   * the bus's `defaultTimeoutMs`; `Infinity` disables the timeout. Must be a positive number.
   */
  timeoutMs?: number;
}

/** Options of one dispatch (`emit` or `intercept`). */
export interface HookDispatchOptions {
  /**
   * Aborts the dispatch: the running handler's `context.signal` aborts, the bus stops waiting for it
   * and runs no further handler. The dispatch then resolves (it never rejects) with `aborted: true`.
   */
  signal?: AbortSignal;
  /**
   * For a bus made with `copyEvents`: hand every handler of this dispatch the caller's own event
   * object instead of a copy, for hooks whose handlers edit the event in place on purpose. Default
   * `false`.
   */
  shareEvent?: boolean;
  /**
   * For a bus made with `copyEvents`: how this dispatch copies the event for each handler, instead
   * of `copyPlainData(event)`. For a host whose event holds parts it wants copied apart (no object
   * shared between two parts of a handler's copy) or built from its own objects on purpose. Ignored
   * with `shareEvent`.
   *
   * Contract: returns a new event each call that shares nothing a handler could change with the
   * caller's (strings may be shared); must not throw (a throw rejects the dispatch).
   */
  copyEvent?: (event: unknown) => unknown;
  /**
   * For `intercept`: called after each handler that returned (not one that threw or timed out) with
   * its result (`undefined` included) and the event the caller passed (a handler may have edited it
   * in place). Returns `undefined` when all is well, else what is wrong (one line): the bus then
   * reports a `HOOK_INVALID_RESULT` error naming the hook and the extension, and goes on as if the
   * handler had returned `undefined`.
   *
   * Contract: may be async (the dispatch awaits it before the next handler runs); may repair or
   * update the caller's event (it is the caller's object: with `copyEvents`, the next handler gets a
   * copy of the updated event, which is how a host chains results) but nothing else; a throw or a
   * rejection counts as "invalid", with its message.
   */
  validateResult?: (result: unknown, event: unknown) => string | undefined | Promise<string | undefined>;
}

/** Outcome of `HookBus.emit`. */
export interface EmitResult {
  /** True when the dispatch's signal aborted before every handler ran. */
  aborted: boolean;
}

/**
 * Outcome of `HookBus.intercept`. Merge rules:
 * 1. handlers run one at a time in registration order;
 * 2. a handler returning an object with `cancel: true` stops the chain: later handlers do not run,
 *    `cancelled` is true and `result` is that handler's return value;
 * 3. otherwise `result` is the **last non-undefined** value any handler returned (whole values, no
 *    field-by-field or deep merge); `undefined` when no handler returned one;
 * 4. a handler that throws or times out counts as returning `undefined`.
 */
export interface InterceptResult<R> {
  /** True when a handler returned `{ cancel: true }`. */
  cancelled: boolean;
  /** The cancelling value, or the last non-undefined value returned, or undefined. */
  result: R | undefined;
  /** Extension id of the handler that cancelled (undefined when none did, or it had no id). */
  cancelledBy: string | undefined;
  /** True when the dispatch's signal aborted before every handler ran. */
  aborted: boolean;
}
