import { HookError } from "../hook-error";

/** How one handler call ended. */
export type HandlerOutcome =
  | { kind: "returned"; value: unknown }
  | { kind: "failed"; error: HookError }
  | { kind: "aborted" };

/** What {@link runHandler} needs to call one handler. */
export interface RunHandlerInput {
  hookName: string;
  extensionId: string | undefined;
  timeoutMs: number;
  /** The dispatch's signal, if any. */
  outerSignal: AbortSignal | undefined;
  /** Calls the handler with the signal the bus created for it. */
  call: (signal: AbortSignal) => unknown;
}

function ownerOf(extensionId: string | undefined): string {
  return extensionId === undefined ? "A handler without extension id" : `Extension "${extensionId}"`;
}

/**
 * Calls one handler and settles with its outcome. Never rejects: a throw or rejection becomes
 * `HOOK_FAILED`, a handler still running after `timeoutMs` becomes `HOOK_TIMEOUT` (its signal is
 * aborted and its late result ignored), and an outer abort ends the wait with `aborted`.
 */
export function runHandler(input: RunHandlerInput): Promise<HandlerOutcome> {
  const { hookName, extensionId, timeoutMs, outerSignal } = input;
  const controller = new AbortController();
  if (outerSignal?.aborted) return Promise.resolve({ kind: "aborted" });
  return new Promise<HandlerOutcome>((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onOuterAbort = () => {
      controller.abort(outerSignal?.reason);
      finish({ kind: "aborted" });
    };
    const finish = (outcome: HandlerOutcome) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      outerSignal?.removeEventListener("abort", onOuterAbort);
      resolve(outcome);
    };
    const fail = (cause: unknown) => {
      const reason = cause instanceof Error ? cause.message : String(cause);
      const message = `${ownerOf(extensionId)} failed in hook "${hookName}": ${reason}`;
      finish({
        kind: "failed",
        error: new HookError("HOOK_FAILED", message, { hookName, extensionId, cause }),
      });
    };
    outerSignal?.addEventListener("abort", onOuterAbort, { once: true });
    if (Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => {
        const message = `${ownerOf(extensionId)} did not finish hook "${hookName}" within ${timeoutMs} ms`;
        const error = new HookError("HOOK_TIMEOUT", message, { hookName, extensionId, timeoutMs });
        controller.abort(error);
        finish({ kind: "failed", error });
      }, timeoutMs);
    }
    let returned: unknown;
    try {
      returned = input.call(controller.signal);
    } catch (error) {
      fail(error);
      return;
    }
    Promise.resolve(returned).then((value) => finish({ kind: "returned", value }), fail);
  });
}
