import { describe, expect, expectTypeOf, it } from "vitest";
import { createHookBus } from "./create-hook-bus";
import type { HookError } from "./hook-error";
import type { HookErrorEvent } from "./hook-map";

interface TestHooks {
  turn_start: { event: { turnIndex: number }; result: undefined };
  beforeCompact: { event: { tokens: number }; result: { cancel?: boolean; summary?: string } };
}

function createRecordingBus(options: { defaultTimeoutMs?: number } = {}) {
  const unreported: HookError[] = [];
  const bus = createHookBus<TestHooks>({ ...options, onUnreported: (error) => unreported.push(error) });
  const reported: HookErrorEvent[] = [];
  bus.on("hook_error", (event) => {
    reported.push(event);
  });
  return { bus, reported, unreported };
}

describe("createHookBus: emit", () => {
  it("runs handlers one at a time in registration order and awaits each", async () => {
    const { bus } = createRecordingBus();
    const log: string[] = [];
    bus.on("turn_start", async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`a${event.turnIndex}`);
    });
    bus.on("turn_start", (event) => {
      log.push(`b${event.turnIndex}`);
    });
    const outcome = await bus.emit("turn_start", { turnIndex: 3 });
    expect(log).toEqual(["a3", "b3"]);
    expect(outcome).toEqual({ aborted: false });
  });

  it("isolates a throwing handler, reports it naming the extension, and runs the rest", async () => {
    const { bus, reported } = createRecordingBus();
    const log: string[] = [];
    bus.on(
      "turn_start",
      () => {
        throw new Error("boom");
      },
      { extensionId: "faulty" },
    );
    bus.on("turn_start", async () => {
      throw new Error("async boom");
    });
    bus.on("turn_start", () => {
      log.push("ran");
    });
    await bus.emit("turn_start", { turnIndex: 0 });
    expect(log).toEqual(["ran"]);
    expect(reported.map((event) => [event.hookName, event.extensionId, event.error.code])).toEqual([
      ["turn_start", "faulty", "HOOK_FAILED"],
      ["turn_start", undefined, "HOOK_FAILED"],
    ]);
    expect(reported[0]?.error.message).toBe('Extension "faulty" failed in hook "turn_start": boom');
    expect(reported[0]?.error.cause).toEqual(new Error("boom"));
  });

  it("cuts off a hanging handler after its timeout and aborts its signal", async () => {
    const { bus, reported } = createRecordingBus();
    let seenSignal: AbortSignal | undefined;
    const log: string[] = [];
    bus.on(
      "turn_start",
      (_event, context) => {
        seenSignal = context.signal;
        return new Promise<void>(() => {});
      },
      { extensionId: "slow", timeoutMs: 20 },
    );
    bus.on("turn_start", () => {
      log.push("next");
    });
    await bus.emit("turn_start", { turnIndex: 1 });
    expect(log).toEqual(["next"]);
    expect(seenSignal?.aborted).toBe(true);
    const error = reported[0]?.error;
    expect(error?.code).toBe("HOOK_TIMEOUT");
    expect(error?.timeoutMs).toBe(20);
    expect(error?.extensionId).toBe("slow");
    expect(seenSignal?.reason).toBe(error);
  });

  it("uses the bus default timeout for handlers registered without one", async () => {
    const { bus, reported } = createRecordingBus({ defaultTimeoutMs: 15 });
    bus.on("turn_start", () => new Promise<void>(() => {}));
    await bus.emit("turn_start", { turnIndex: 1 });
    expect(reported[0]?.error.timeoutMs).toBe(15);
  });

  it("hands failures to onUnreported when no hook_error handler exists or it fails itself", async () => {
    const unreported: HookError[] = [];
    const bus = createHookBus<TestHooks>({ onUnreported: (error) => unreported.push(error) });
    bus.on("turn_start", () => {
      throw new Error("first");
    });
    await bus.emit("turn_start", { turnIndex: 0 });
    expect(unreported.map((error) => error.hookName)).toEqual(["turn_start"]);

    bus.on(
      "hook_error",
      () => {
        throw new Error("reporter broke");
      },
      { extensionId: "reporter" },
    );
    await bus.emit("turn_start", { turnIndex: 0 });
    expect(unreported.map((error) => [error.hookName, error.extensionId])).toEqual([
      ["turn_start", undefined],
      ["hook_error", "reporter"],
    ]);
  });

  it("snapshots handlers at dispatch: changes apply from the next dispatch", async () => {
    const { bus } = createRecordingBus();
    const log: string[] = [];
    let removeSecond = () => {};
    bus.on("turn_start", () => {
      log.push("first");
      removeSecond();
      bus.on("turn_start", () => {
        log.push("added");
      });
    });
    removeSecond = bus.on("turn_start", () => {
      log.push("second");
    });
    await bus.emit("turn_start", { turnIndex: 0 });
    expect(log).toEqual(["first", "second"]);
    expect(bus.listenerCount("turn_start")).toBe(2);
  });

  it("unsubscribes exactly one registration, idempotently", async () => {
    const { bus } = createRecordingBus();
    let calls = 0;
    const handler = () => {
      calls++;
    };
    const off = bus.on("turn_start", handler);
    bus.on("turn_start", handler);
    off();
    off();
    await bus.emit("turn_start", { turnIndex: 0 });
    expect(calls).toBe(1);
  });

  it("stops at once when the dispatch signal aborts and runs no further handler", async () => {
    const { bus, reported } = createRecordingBus();
    const controller = new AbortController();
    const log: string[] = [];
    let handlerSignal: AbortSignal | undefined;
    bus.on("turn_start", (_event, context) => {
      handlerSignal = context.signal;
      setTimeout(() => controller.abort(new Error("user stop")), 1);
      return new Promise<void>(() => {});
    });
    bus.on("turn_start", () => {
      log.push("never");
    });
    const outcome = await bus.emit("turn_start", { turnIndex: 0 }, { signal: controller.signal });
    expect(outcome.aborted).toBe(true);
    expect(log).toEqual([]);
    expect(handlerSignal?.aborted).toBe(true);
    expect(reported).toEqual([]);
    expect((await bus.emit("turn_start", { turnIndex: 0 }, { signal: controller.signal })).aborted).toBe(
      true,
    );
  });

  it("rejects a non-positive timeout as a programmer error", () => {
    const bus = createHookBus<TestHooks>();
    expect(() => bus.on("turn_start", () => {}, { timeoutMs: 0 })).toThrow(RangeError);
    expect(() => createHookBus<TestHooks>({ defaultTimeoutMs: -1 })).toThrow(/defaultTimeoutMs/);
    expect(() => bus.on("turn_start", () => {}, { timeoutMs: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});

describe("createHookBus: intercept", () => {
  it("returns the last non-undefined result and shows each handler the running result", async () => {
    const { bus } = createRecordingBus();
    const seen: Array<string | undefined> = [];
    bus.on("beforeCompact", (_event, context) => {
      seen.push(context.previousResult?.summary);
      return { summary: "one" };
    });
    bus.on("beforeCompact", (_event, context) => {
      seen.push(context.previousResult?.summary);
      return undefined;
    });
    bus.on("beforeCompact", async (event, context) => {
      seen.push(context.previousResult?.summary);
      return { summary: `two:${event.tokens}` };
    });
    bus.on("beforeCompact", () => undefined);
    const outcome = await bus.intercept("beforeCompact", { tokens: 7 });
    expect(outcome).toEqual({
      cancelled: false,
      result: { summary: "two:7" },
      cancelledBy: undefined,
      aborted: false,
    });
    expect(seen).toEqual([undefined, "one", "one"]);
  });

  it("stops the chain at the first cancel and names who cancelled", async () => {
    const { bus } = createRecordingBus();
    const log: string[] = [];
    bus.on("beforeCompact", () => ({ summary: "replacement" }));
    bus.on("beforeCompact", () => ({ cancel: true }), { extensionId: "guard" });
    bus.on("beforeCompact", () => {
      log.push("after cancel");
      return { summary: "late" };
    });
    const outcome = await bus.intercept("beforeCompact", { tokens: 1 });
    expect(outcome).toEqual({
      cancelled: true,
      result: { cancel: true },
      cancelledBy: "guard",
      aborted: false,
    });
    expect(log).toEqual([]);
  });

  it("treats a failing interceptor as returning undefined", async () => {
    const { bus, reported } = createRecordingBus();
    bus.on("beforeCompact", () => ({ summary: "kept" }));
    bus.on(
      "beforeCompact",
      () => {
        throw new Error("nope");
      },
      { extensionId: "x" },
    );
    const outcome = await bus.intercept("beforeCompact", { tokens: 1 });
    expect(outcome.result).toEqual({ summary: "kept" });
    expect(reported.map((event) => event.hookName)).toEqual(["beforeCompact"]);
  });

  it("resolves with no result when nobody listens", async () => {
    const bus = createHookBus<TestHooks>();
    expect(await bus.intercept("beforeCompact", { tokens: 1 })).toEqual({
      cancelled: false,
      result: undefined,
      cancelledBy: undefined,
      aborted: false,
    });
  });

  it("types emit for notifications and intercept for interceptors only", () => {
    const bus = createHookBus<TestHooks>();
    expectTypeOf(bus.intercept("beforeCompact", { tokens: 1 })).resolves.toHaveProperty("result");
    // @ts-expect-error beforeCompact is an interceptor, not a notification
    void bus.emit("beforeCompact", { tokens: 1 });
    // @ts-expect-error turn_start is a notification
    void bus.intercept("turn_start", { turnIndex: 1 });
    // @ts-expect-error wrong event shape
    void bus.emit("turn_start", { turn: 1 });
    // @ts-expect-error unknown hook name
    bus.on("unknown", () => {});
  });

  it("accepts `void` as the notification marker too", async () => {
    // biome-ignore lint/suspicious/noConfusingVoidType: the style most hook maps are written in
    const bus = createHookBus<{ ping: { event: string; result: void } }>();
    const seen: string[] = [];
    bus.on("ping", async (event) => {
      seen.push(event);
    });
    await bus.emit("ping", "pong");
    expect(seen).toEqual(["pong"]);
  });
});

describe("createHookBus: hookNames", () => {
  it("throws EXTENSION_UNKNOWN_HOOK for a name outside the list, naming the closest one", () => {
    const bus = createHookBus<TestHooks>({ hookNames: ["turn_start", "beforeCompact"] });
    const register = bus.on as (
      name: string,
      handler: () => void,
      options?: { extensionId?: string },
    ) => void;
    expect(() => register("turn-start", () => {}, { extensionId: "ext" })).toThrow(
      expect.objectContaining({
        code: "EXTENSION_UNKNOWN_HOOK",
        hookName: "turn-start",
        closestHookName: "turn_start",
        extensionName: "ext",
        message: 'Extension "ext": unknown hook "turn-start"; did you mean "turn_start"?',
      }),
    );
    expect(bus.listenerCount("turn_start")).toBe(0);
  });

  it("accepts the listed names and hook_error", () => {
    const bus = createHookBus<TestHooks>({ hookNames: ["turn_start", "beforeCompact"] });
    bus.on("turn_start", () => {});
    bus.on("hook_error", () => {});
    expect(bus.listenerCount("turn_start")).toBe(1);
    expect(bus.listenerCount("hook_error")).toBe(1);
  });

  it("accepts any name without the list", () => {
    const bus = createHookBus<TestHooks>();
    (bus.on as (name: string, handler: () => void) => void)("anything", () => {});
    expect(bus.listenerCount("anything" as "turn_start")).toBe(1);
  });
});
