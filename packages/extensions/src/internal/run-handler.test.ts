import { describe, expect, it } from "vitest";
import { HookError } from "../hook-error";
import { type HandlerOutcome, type RunHandlerInput, runHandler } from "./run-handler";

function input(call: RunHandlerInput["call"], overrides: Partial<RunHandlerInput> = {}): RunHandlerInput {
  return {
    hookName: "turn_start",
    extensionId: "ext",
    timeoutMs: 5000,
    outerSignal: undefined,
    call,
    ...overrides,
  };
}

/** Waits `ms` (only where the point is that a timer that should be gone does not fire). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function failure(outcome: HandlerOutcome): HookError {
  if (outcome.kind !== "failed") throw new Error(`expected a failure, got ${outcome.kind}`);
  return outcome.error;
}

describe("runHandler", () => {
  it("settles with what the handler returned, synchronously or asynchronously", async () => {
    expect(await runHandler(input(() => 42))).toEqual({ kind: "returned", value: 42 });
    expect(await runHandler(input(async () => ({ cancel: true })))).toEqual({
      kind: "returned",
      value: { cancel: true },
    });
    expect(await runHandler(input(() => undefined))).toEqual({ kind: "returned", value: undefined });
  });

  it("turns a throw into HOOK_FAILED naming the extension and the hook, with the cause", async () => {
    const cause = new Error("boom");
    const error = failure(
      await runHandler(
        input(() => {
          throw cause;
        }),
      ),
    );
    expect(error).toBeInstanceOf(HookError);
    expect(error.code).toBe("HOOK_FAILED");
    expect(error.message).toBe('Extension "ext" failed in hook "turn_start": boom');
    expect(error.hookName).toBe("turn_start");
    expect(error.extensionId).toBe("ext");
    expect(error.cause).toBe(cause);
  });

  it("turns a rejection, also with a non-Error reason, into HOOK_FAILED; an anonymous handler is named as such", async () => {
    const error = failure(
      await runHandler(input(() => Promise.reject("just a string"), { extensionId: undefined })),
    );
    expect(error.code).toBe("HOOK_FAILED");
    expect(error.message).toBe('A handler without extension id failed in hook "turn_start": just a string');
    expect(error.extensionId).toBeUndefined();
    expect(error.cause).toBe("just a string");
  });

  it("cuts off a handler after its timeout: HOOK_TIMEOUT, its signal aborted, its late result ignored", async () => {
    let signal: AbortSignal | undefined;
    let finishLate: (value: unknown) => void = () => {};
    const outcome = await runHandler(
      input(
        (handlerSignal) => {
          signal = handlerSignal;
          return new Promise((resolve) => {
            finishLate = resolve;
          });
        },
        { timeoutMs: 20, hookName: "session_before_compact" },
      ),
    );
    const error = failure(outcome);
    expect(error.code).toBe("HOOK_TIMEOUT");
    expect(error.message).toBe('Extension "ext" did not finish hook "session_before_compact" within 20 ms');
    expect(error.timeoutMs).toBe(20);
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(error);
    finishLate("too late");
    await pause(5);
    expect(outcome.kind).toBe("failed");
  });

  it("an infinite timeout waits as long as the handler takes", async () => {
    const outcome = await runHandler(
      input(() => pause(30).then(() => "slow but fine"), { timeoutMs: Number.POSITIVE_INFINITY }),
    );
    expect(outcome).toEqual({ kind: "returned", value: "slow but fine" });
  });

  it("a handler that finished in time is never aborted by its timer afterwards", async () => {
    let signal: AbortSignal | undefined;
    const outcome = await runHandler(
      input(
        (handlerSignal) => {
          signal = handlerSignal;
          return "quick";
        },
        { timeoutMs: 10 },
      ),
    );
    expect(outcome).toEqual({ kind: "returned", value: "quick" });
    await pause(40);
    expect(signal?.aborted).toBe(false);
  });

  it("does not call the handler when the dispatch is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    let called = false;
    const outcome = await runHandler(
      input(
        () => {
          called = true;
        },
        { outerSignal: controller.signal },
      ),
    );
    expect(outcome).toEqual({ kind: "aborted" });
    expect(called).toBe(false);
  });

  it("an outer abort ends the wait and aborts the handler's signal with the outer reason", async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const running = runHandler(
      input(
        (handlerSignal) => {
          signal = handlerSignal;
          return new Promise(() => {});
        },
        { outerSignal: controller.signal },
      ),
    );
    const reason = new Error("user pressed escape");
    controller.abort(reason);
    expect(await running).toEqual({ kind: "aborted" });
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(reason);
  });

  it("after the handler settled, an outer abort no longer reaches it", async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const outcome = await runHandler(
      input(
        (handlerSignal) => {
          signal = handlerSignal;
          return "done";
        },
        { outerSignal: controller.signal },
      ),
    );
    controller.abort(new Error("later"));
    expect(outcome).toEqual({ kind: "returned", value: "done" });
    expect(signal?.aborted).toBe(false);
  });
});
