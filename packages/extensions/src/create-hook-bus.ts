import { copyPlainData } from "./copy-plain-data";
import { ExtensionError } from "./extension-error";
import { HookError } from "./hook-error";
import type {
  BuiltinHooks,
  EmitResult,
  HookContext,
  HookDispatchOptions,
  HookEvent,
  HookHandler,
  HookMap,
  HookResult,
  HookSubscribeOptions,
  InterceptorName,
  InterceptResult,
  NotificationName,
} from "./hook-map";
import { closestName } from "./internal/closest-name";
import { runHandler } from "./internal/run-handler";

/** Timeout applied to a handler registered without `timeoutMs`, unless the bus sets another. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;

/** Options of {@link createHookBus}. */
export interface CreateHookBusOptions {
  /** Timeout for handlers registered without one. Defaults to 30 s; `Infinity` disables it. */
  defaultTimeoutMs?: number;
  /**
   * Receives hook errors nobody else saw: when no `hook_error` handler is registered, or when a
   * `hook_error` handler fails itself. Defaults to `process.emitWarning(error)`, so a failure is
   * never silent.
   *
   * Contract: must not throw (a throw propagates out of the dispatch that reported the error).
   */
  onUnreported?: (error: HookError) => void;
  /**
   * Hand each handler its own copy of the event (plain objects and arrays copied, strings shared,
   * other objects such as errors and signals passed as they are; see `copyPlainData`), so that a
   * handler mutating its payload cannot change what the caller or the next handler sees. A dispatch
   * may opt out with `shareEvent`. Default `false`: every handler gets the caller's object.
   */
  copyEvents?: boolean;
  /**
   * Every hook name the bus accepts (its map's keys; `hook_error` is always accepted). When given,
   * `on` with any other name throws `ExtensionError` `EXTENSION_UNKNOWN_HOOK` naming the closest
   * known name, so a typo or a hook the host does not implement fails at registration instead of
   * never firing. Without it, `on` accepts any name the types allow.
   */
  hookNames?: readonly string[];
}

/**
 * A typed hook bus over the hook map `M` plus {@link BuiltinHooks} (`hook_error`).
 *
 * Dispatch rules, shared by `emit` and `intercept`:
 * - handlers run **one at a time, in registration order**; the handler list is snapshotted when the
 *   dispatch starts, so handlers added or removed meanwhile take effect from the next dispatch;
 * - a handler that throws, rejects or exceeds its timeout is isolated: the bus reports a `HookError`
 *   (`HOOK_FAILED` / `HOOK_TIMEOUT`, naming the hook and the extension id) as a `hook_error` event and
 *   continues with the next handler; so is a result `validateResult` refuses (`HOOK_INVALID_RESULT`);
 * - with `copyEvents`, each handler gets its own copy of the event (unless the dispatch shares it);
 * - `emit` and `intercept` never reject because of a handler.
 */
export interface HookBus<M extends HookMap<M>> {
  /**
   * Registers `handler` for `name`. Returns a function that removes exactly this registration
   * (calling it twice is harmless). The same function registered twice runs twice.
   *
   * @throws ExtensionError `EXTENSION_UNKNOWN_HOOK` when the bus was made with `hookNames` and `name`
   * is not one of them (nor `hook_error`); the message names the closest known name.
   * @throws RangeError when `timeoutMs` is not a positive number (a programmer error).
   */
  on<K extends keyof (M & BuiltinHooks) & string>(
    name: K,
    handler: HookHandler<M & BuiltinHooks, K>,
    options?: HookSubscribeOptions,
  ): () => void;
  /**
   * Dispatches a notification: every handler runs in registration order and is awaited; return
   * values are ignored. Resolves when all handlers settled (or the dispatch was aborted).
   */
  emit<K extends NotificationName<M & BuiltinHooks>>(
    name: K,
    event: HookEvent<M & BuiltinHooks, K>,
    options?: HookDispatchOptions,
  ): Promise<EmitResult>;
  /**
   * Dispatches an interceptor and merges the handlers' results by the rules on
   * {@link InterceptResult}: registration order; `{ cancel: true }` stops the chain; otherwise the
   * last non-undefined result wins (no deep merge). Each handler sees the running result as
   * `context.previousResult`.
   */
  intercept<K extends InterceptorName<M>>(
    name: K,
    event: HookEvent<M, K>,
    options?: HookDispatchOptions,
  ): Promise<InterceptResult<HookResult<M, K>>>;
  /** Number of handlers currently registered for `name`. */
  listenerCount(name: keyof (M & BuiltinHooks) & string): number;
}

interface Registration {
  handler: (event: unknown, context: HookContext<unknown>) => unknown;
  extensionId: string | undefined;
  timeoutMs: number;
}

function isCancel(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as { cancel?: unknown }).cancel === true;
}

async function validate(
  options: HookDispatchOptions | undefined,
  result: unknown,
  event: unknown,
): Promise<string | undefined> {
  if (options?.validateResult === undefined) return undefined;
  try {
    return await options.validateResult(result, event);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function defaultOnUnreported(error: HookError): void {
  process.emitWarning(error);
}

/**
 * Creates a hook bus for the hook map `M`. Usually `M` is an intersection of the hook and event
 * maps that lower packages export, composed by the application:
 *
 * ```ts
 * const bus = createHookBus<AgentLoopEvents & CompactionHooks>();
 * bus.on("turn_end", (event) => log(event.turnIndex), { extensionId: "logger" });
 * const { cancelled, result } = await bus.intercept("beforeCompact", preparation);
 * ```
 */
export function createHookBus<M extends HookMap<M>>(options: CreateHookBusOptions = {}): HookBus<M> {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const onUnreported = options.onUnreported ?? defaultOnUnreported;
  assertTimeout(defaultTimeoutMs, "defaultTimeoutMs");
  const registry = new Map<string, Registration[]>();
  const known = options.hookNames === undefined ? undefined : new Set([...options.hookNames, "hook_error"]);

  async function dispatch(
    name: string,
    event: unknown,
    intercepting: boolean,
    dispatchOptions: HookDispatchOptions | undefined,
  ): Promise<InterceptResult<unknown>> {
    const handlers = registry.get(name)?.slice() ?? [];
    const outcome: InterceptResult<unknown> = {
      cancelled: false,
      result: undefined,
      cancelledBy: undefined,
      aborted: false,
    };
    const copying = options.copyEvents === true && dispatchOptions?.shareEvent !== true;
    for (const registration of handlers) {
      const { extensionId } = registration;
      const payload = copying ? (dispatchOptions?.copyEvent ?? copyPlainData)(event) : event;
      const handled = await runHandler({
        hookName: name,
        extensionId,
        timeoutMs: registration.timeoutMs,
        outerSignal: dispatchOptions?.signal,
        call: (signal) =>
          registration.handler(payload, {
            hookName: name,
            extensionId,
            signal,
            previousResult: outcome.result,
          }),
      });
      if (handled.kind === "aborted") {
        outcome.aborted = true;
        break;
      }
      if (handled.kind === "failed") {
        await report(handled.error);
        continue;
      }
      if (!intercepting) continue;
      const problem = await validate(dispatchOptions, handled.value, event);
      if (problem !== undefined) {
        const owner =
          extensionId === undefined ? "A handler without extension id" : `Extension "${extensionId}"`;
        const message = `${owner} returned an invalid result from hook "${name}" (ignored): ${problem}`;
        await report(new HookError("HOOK_INVALID_RESULT", message, { hookName: name, extensionId }));
        continue;
      }
      if (handled.value === undefined) continue;
      outcome.result = handled.value;
      if (isCancel(handled.value)) {
        outcome.cancelled = true;
        outcome.cancelledBy = extensionId;
        break;
      }
    }
    return outcome;
  }

  async function report(error: HookError): Promise<void> {
    if (error.hookName === "hook_error" || (registry.get("hook_error")?.length ?? 0) === 0) {
      onUnreported(error);
      return;
    }
    await dispatch(
      "hook_error",
      { error, hookName: error.hookName, extensionId: error.extensionId },
      false,
      undefined,
    );
  }

  return {
    on(name, handler, subscribeOptions = {}) {
      if (known !== undefined && !known.has(name))
        throw unknownHook(name, known, subscribeOptions.extensionId);
      const timeoutMs = subscribeOptions.timeoutMs ?? defaultTimeoutMs;
      assertTimeout(timeoutMs, `timeoutMs of a "${name}" handler`);
      const registration: Registration = {
        handler: handler as Registration["handler"],
        extensionId: subscribeOptions.extensionId,
        timeoutMs,
      };
      const list = registry.get(name) ?? [];
      list.push(registration);
      registry.set(name, list);
      return () => {
        const current = registry.get(name);
        const index = current?.indexOf(registration) ?? -1;
        if (current && index >= 0) current.splice(index, 1);
      };
    },
    async emit(name, event, dispatchOptions) {
      const { aborted } = await dispatch(name, event, false, dispatchOptions);
      return { aborted };
    },
    intercept(name, event, dispatchOptions) {
      return dispatch(name, event, true, dispatchOptions) as Promise<InterceptResult<never>>;
    },
    listenerCount(name) {
      return registry.get(name)?.length ?? 0;
    },
  };
}

function unknownHook(
  name: unknown,
  known: ReadonlySet<string>,
  extensionId: string | undefined,
): ExtensionError {
  const hookName = String(name);
  const closestHookName = closestName(hookName, known);
  const owner = extensionId === undefined ? "" : `Extension "${extensionId}": `;
  const hint = closestHookName === undefined ? "" : `; did you mean "${closestHookName}"?`;
  return new ExtensionError("EXTENSION_UNKNOWN_HOOK", `${owner}unknown hook "${hookName}"${hint}`, {
    extensionName: extensionId,
    hookName,
    ...(closestHookName === undefined ? {} : { closestHookName }),
  });
}

function assertTimeout(value: number, what: string): void {
  if (!(typeof value === "number" && value > 0)) {
    throw new RangeError(
      `${what} must be a positive number of milliseconds or Infinity, got ${String(value)}`,
    );
  }
}
