/**
 * The hook bus's dispatch rules not covered by create-hook-bus.test.ts: what a notification does
 * with results, odd interceptor results, the hook_error report, the default timeout and warning,
 * unsubscribing in every position, and the timeout validation.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHookBus, DEFAULT_HOOK_TIMEOUT_MS } from "./create-hook-bus";
import type { HookError } from "./hook-error";
import type { HookErrorEvent } from "./hook-map";

interface TestHooks {
  turn_start: { event: { turnIndex: number }; result: undefined };
  beforeCompact: { event: { tokens: number }; result: { cancel?: unknown; summary?: string } | null };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("createHookBus: notifications", () => {
  it("ignore handler results: a `{ cancel: true }` returned to emit neither stops the chain nor shows up", async () => {
    const bus = createHookBus<TestHooks>();
    const log: string[] = [];
    bus.on("beforeCompact", () => {
      log.push("first");
      return { cancel: true };
    });
    bus.on("beforeCompact", () => {
      log.push("second");
      return { summary: "x" };
    });
    bus.on("beforeCompact", (_event, context) => {
      log.push(`third saw ${JSON.stringify(context.previousResult)}`);
      return undefined;
    });
    await expect(
      (bus.emit as (name: string, event: unknown) => Promise<unknown>)("beforeCompact", { tokens: 1 }),
    ).resolves.toEqual({ aborted: false });
    expect(log).toEqual(["first", "second", "third saw undefined"]);
  });

  it("pass each handler the hook name, its extension id and its own signal", async () => {
    const bus = createHookBus<TestHooks>();
    const seen: unknown[] = [];
    bus.on(
      "turn_start",
      (event, context) => {
        seen.push([event.turnIndex, context.hookName, context.extensionId, context.signal.aborted]);
      },
      { extensionId: "watcher" },
    );
    await bus.emit("turn_start", { turnIndex: 7 });
    expect(seen).toEqual([[7, "turn_start", "watcher", false]]);
  });
});

describe("createHookBus: interceptors", () => {
  it("a null result replaces the running result but does not cancel", async () => {
    const bus = createHookBus<TestHooks>();
    const previous: unknown[] = [];
    bus.on("beforeCompact", () => ({ summary: "first" }));
    bus.on("beforeCompact", () => null);
    bus.on("beforeCompact", (_event, context) => {
      previous.push(context.previousResult);
      return undefined;
    });
    const outcome = await bus.intercept("beforeCompact", { tokens: 1 });
    expect(outcome).toEqual({ cancelled: false, result: null, cancelledBy: undefined, aborted: false });
    expect(previous).toEqual([null]);
  });

  it("only `cancel: true` cancels (not a truthy non-boolean)", async () => {
    const bus = createHookBus<TestHooks>();
    let ran = false;
    bus.on("beforeCompact", () => ({ cancel: "yes" }), { extensionId: "a" });
    bus.on("beforeCompact", () => {
      ran = true;
      return undefined;
    });
    const outcome = await bus.intercept("beforeCompact", { tokens: 1 });
    expect(outcome.cancelled).toBe(false);
    expect(outcome.cancelledBy).toBeUndefined();
    expect(outcome.result).toEqual({ cancel: "yes" });
    expect(ran).toBe(true);
  });

  it("an interceptor aborted by the dispatch signal reports `aborted` and keeps the result so far", async () => {
    const bus = createHookBus<TestHooks>();
    const controller = new AbortController();
    bus.on("beforeCompact", () => ({ summary: "kept" }));
    bus.on("beforeCompact", () => {
      controller.abort();
      return new Promise(() => {});
    });
    const outcome = await bus.intercept("beforeCompact", { tokens: 1 }, { signal: controller.signal });
    expect(outcome).toEqual({
      cancelled: false,
      result: { summary: "kept" },
      cancelledBy: undefined,
      aborted: true,
    });
  });
});

describe("createHookBus: a hook nobody listens to", () => {
  it("dispatches to nobody: no result, no failure report", async () => {
    const unreported: HookError[] = [];
    const bus = createHookBus<TestHooks>({ onUnreported: (error) => unreported.push(error) });
    expect(await bus.intercept("beforeCompact", { tokens: 1 })).toEqual({
      cancelled: false,
      result: undefined,
      cancelledBy: undefined,
      aborted: false,
    });
    expect(await bus.emit("turn_start", { turnIndex: 0 })).toEqual({ aborted: false });
    expect(unreported).toEqual([]);
  });
});

describe("createHookBus: failure reports", () => {
  it("hook_error handlers are notified: a `{ cancel: true }` from one does not stop the next", async () => {
    const bus = createHookBus<TestHooks>();
    const log: string[] = [];
    (bus.on as (name: string, handler: () => unknown) => void)("hook_error", () => {
      log.push("first");
      return { cancel: true };
    });
    bus.on("hook_error", () => {
      log.push("second");
    });
    bus.on("turn_start", () => {
      throw new Error("boom");
    });
    await bus.emit("turn_start", { turnIndex: 0 });
    expect(log).toEqual(["first", "second"]);
  });

  it("a hook_error handler receives the error with the hook name and extension id", async () => {
    const unreported: HookError[] = [];
    const bus = createHookBus<TestHooks>({ onUnreported: (error) => unreported.push(error) });
    const reported: HookErrorEvent[] = [];
    bus.on("hook_error", (event) => {
      reported.push(event);
    });
    bus.on("beforeCompact", () => Promise.reject(new Error("nope")), { extensionId: "bad" });
    const outcome = await bus.intercept("beforeCompact", { tokens: 1 });
    expect(outcome.result).toBeUndefined();
    expect(reported).toHaveLength(1);
    expect(reported[0]).toEqual({ error: reported[0]?.error, hookName: "beforeCompact", extensionId: "bad" });
    expect(reported[0]?.error.code).toBe("HOOK_FAILED");
    expect(unreported).toEqual([]);
  });

  it("after the last hook_error handler is removed, failures go to onUnreported again", async () => {
    const unreported: HookError[] = [];
    const bus = createHookBus<TestHooks>({ onUnreported: (error) => unreported.push(error) });
    const off = bus.on("hook_error", () => {});
    bus.on("turn_start", () => {
      throw new Error("boom");
    });
    await bus.emit("turn_start", { turnIndex: 0 });
    expect(unreported).toEqual([]);
    off();
    await bus.emit("turn_start", { turnIndex: 1 });
    expect(unreported.map((error) => error.message)).toEqual([
      'A handler without extension id failed in hook "turn_start": boom',
    ]);
  });

  it("without onUnreported, an unreported failure becomes a process warning", async () => {
    const warnings: unknown[] = [];
    const spy = vi.spyOn(process, "emitWarning").mockImplementation((warning) => {
      warnings.push(warning);
    });
    try {
      const bus = createHookBus<TestHooks>();
      bus.on("turn_start", () => {
        throw new Error("boom");
      });
      await bus.emit("turn_start", { turnIndex: 0 });
    } finally {
      spy.mockRestore();
    }
    expect(warnings).toHaveLength(1);
    expect((warnings[0] as HookError).code).toBe("HOOK_FAILED");
  });
});

describe("createHookBus: timeouts and registrations", () => {
  it("a handler without a timeout gets 30 s by default", async () => {
    expect(DEFAULT_HOOK_TIMEOUT_MS).toBe(30_000);
    vi.useFakeTimers();
    const unreported: HookError[] = [];
    const bus = createHookBus<TestHooks>({ onUnreported: (error) => unreported.push(error) });
    bus.on("turn_start", () => new Promise<void>(() => {}));
    let settled = false;
    const emitting = bus.emit("turn_start", { turnIndex: 0 }).then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await emitting;
    expect(unreported.map((error) => [error.code, error.timeoutMs])).toEqual([["HOOK_TIMEOUT", 30_000]]);
  });

  it("a handler's own timeout overrides the bus default", async () => {
    const unreported: HookError[] = [];
    const bus = createHookBus<TestHooks>({
      defaultTimeoutMs: Number.POSITIVE_INFINITY,
      onUnreported: (error) => unreported.push(error),
    });
    bus.on("turn_start", () => new Promise<void>(() => {}), { timeoutMs: 10 });
    await bus.emit("turn_start", { turnIndex: 0 });
    expect(unreported.map((error) => error.timeoutMs)).toEqual([10]);
  });

  it("removes the first, middle or last registration and nothing else", async () => {
    for (const position of [0, 1, 2]) {
      const bus = createHookBus<TestHooks>();
      const log: number[] = [];
      const offs = [0, 1, 2].map((index) =>
        bus.on("turn_start", () => {
          log.push(index);
        }),
      );
      offs[position]?.();
      offs[position]?.();
      await bus.emit("turn_start", { turnIndex: 0 });
      expect(log).toEqual([0, 1, 2].filter((index) => index !== position));
      expect(bus.listenerCount("turn_start")).toBe(2);
    }
  });

  it("counts handlers per name, zero for a name nobody registered", () => {
    const bus = createHookBus<TestHooks>();
    expect(bus.listenerCount("turn_start")).toBe(0);
    bus.on("turn_start", () => {});
    bus.on("beforeCompact", () => undefined);
    bus.on("beforeCompact", () => undefined);
    expect(bus.listenerCount("turn_start")).toBe(1);
    expect(bus.listenerCount("beforeCompact")).toBe(2);
    expect(bus.listenerCount("hook_error")).toBe(0);
  });

  it.each([0, -5, Number.NaN, "10" as unknown as number])(
    "rejects the timeout %s with a message naming it",
    (bad) => {
      const bus = createHookBus<TestHooks>();
      expect(() => bus.on("turn_start", () => {}, { timeoutMs: bad })).toThrow(
        new RangeError(
          `timeoutMs of a "turn_start" handler must be a positive number of milliseconds or Infinity, got ${String(bad)}`,
        ),
      );
      expect(() => createHookBus<TestHooks>({ defaultTimeoutMs: bad })).toThrow(
        `defaultTimeoutMs must be a positive number of milliseconds or Infinity, got ${String(bad)}`,
      );
    },
  );
});
