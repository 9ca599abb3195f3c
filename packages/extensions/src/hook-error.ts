import { hasMarker, markAsArborError } from "./internal/arbor-error-marker";

const MARKER = Symbol.for("arbor.error.hook");

/**
 * Codes of {@link HookError}:
 * - `HOOK_FAILED`: the handler threw or returned a rejected promise; `cause` holds what it threw.
 * - `HOOK_TIMEOUT`: the handler did not settle within its timeout; `timeoutMs` holds the limit.
 * - `HOOK_INVALID_RESULT`: the handler returned a result the dispatcher refused (see
 *   `HookDispatchOptions.validateResult`); the result was ignored.
 *
 * All carry `hookName` and `extensionId` (undefined for a handler registered without one, or when
 * the host cannot tell which handler left an event invalid).
 */
export type HookErrorCode = "HOOK_FAILED" | "HOOK_TIMEOUT" | "HOOK_INVALID_RESULT";

/** Fields of a {@link HookError} besides its code. */
export interface HookErrorDetails {
  /** Name of the hook or event the handler was registered for. */
  hookName: string;
  /** Id of the extension that registered the handler, when it gave one. */
  extensionId: string | undefined;
  /** The limit that was exceeded (`HOOK_TIMEOUT` only). */
  timeoutMs?: number;
  /** What the handler threw (`HOOK_FAILED` only). */
  cause?: unknown;
}

/**
 * A hook handler failed or timed out. The hook bus never throws these: it reports them as a
 * `hook_error` event and carries on with the next handler.
 *
 * Carries the Arbor error marker (`Symbol.for("arbor.error")`), so `ArborError.isInstance` from
 * `@arbor/providers` and {@link HookError.isInstance} both recognise it across duplicated installs.
 */
export class HookError extends Error {
  /** Stable machine-readable code. */
  readonly code: HookErrorCode;
  /** Name of the hook or event the handler was registered for. */
  readonly hookName: string;
  /** Id of the extension that registered the handler, when it gave one. */
  readonly extensionId: string | undefined;
  /** The timeout that was exceeded (`HOOK_TIMEOUT` only). */
  readonly timeoutMs: number | undefined;

  constructor(code: HookErrorCode, message: string, details: HookErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "HookError";
    this.code = code;
    this.hookName = details.hookName;
    this.extensionId = details.extensionId;
    this.timeoutMs = details.timeoutMs;
    markAsArborError(this, MARKER);
  }

  /** True for a `HookError` from any copy of this package (checks the marker `Symbol.for("arbor.error.hook")`). */
  static isInstance(value: unknown): value is HookError {
    return hasMarker(value, MARKER);
  }
}
