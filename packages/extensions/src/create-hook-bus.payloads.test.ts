import { describe, expect, it } from "vitest";
import { createHookBus } from "./create-hook-bus";
import type { HookError } from "./hook-error";
import type { HookErrorEvent } from "./hook-map";

interface Message {
  role: string;
  content: Array<{ type: string; text: string }>;
}

interface PayloadHooks {
  message_end: { event: { message: Message; error: Error; signal: AbortSignal }; result: undefined };
  context: { event: { messages: Message[] }; result: { messages?: unknown } };
}

function recordingBus(copyEvents: boolean) {
  const unreported: HookError[] = [];
  const bus = createHookBus<PayloadHooks>({ copyEvents, onUnreported: (error) => unreported.push(error) });
  const reported: HookErrorEvent[] = [];
  bus.on("hook_error", (event) => {
    reported.push(event);
  });
  return { bus, reported };
}

const message = (): Message => ({ role: "user", content: [{ type: "text", text: "hello" }] });

describe("createHookBus: copyEvents", () => {
  it("hands each handler its own copy: a mutation reaches neither the caller nor the next handler", async () => {
    const { bus, reported } = recordingBus(true);
    const seen: unknown[] = [];
    const error = new Error("kept as is");
    const signal = new AbortController().signal;
    bus.on("message_end", (event) => {
      (event.message as unknown as { content: string }).content = "oops";
      event.message.role = "assistant";
    });
    bus.on("message_end", (event) => {
      seen.push(event.message.content.map((block) => block.text));
      seen.push(event.error === error, event.signal === signal);
    });
    const original = message();
    await bus.emit("message_end", { message: original, error, signal });
    expect(original).toEqual(message());
    expect(seen).toEqual([["hello"], true, true]);
    expect(reported).toEqual([]);
  });

  it("shares the caller's event when the dispatch asks (hooks edited in place on purpose)", async () => {
    const { bus } = recordingBus(true);
    bus.on("context", (event) => {
      event.messages.push(message());
      return undefined;
    });
    const event = { messages: [message()] };
    await bus.intercept("context", event, { shareEvent: true });
    expect(event.messages).toHaveLength(2);
    await bus.intercept("context", event);
    expect(event.messages).toHaveLength(2);
  });

  it("copies with the dispatch's own copyEvent for each handler, and not at all with shareEvent", async () => {
    const { bus } = recordingBus(true);
    const seen: Message[][] = [];
    bus.on("context", (event) => {
      seen.push(event.messages);
      event.messages.push(message());
      return undefined;
    });
    bus.on("context", (event) => {
      seen.push(event.messages);
      return undefined;
    });
    const event = { messages: [message()] };
    const copies: unknown[] = [];
    const copyEvent = (value: unknown) => {
      const copy = { messages: [...(value as typeof event).messages, { role: "copied", content: [] }] };
      copies.push(copy);
      return copy;
    };
    await bus.intercept("context", event, { copyEvent });
    expect(copies).toHaveLength(2);
    expect(seen.map((messages) => messages.map((m) => m.role))).toEqual([
      ["user", "copied", "user"],
      ["user", "copied"],
    ]);
    expect(event.messages).toHaveLength(1);
    await bus.intercept("context", event, { copyEvent, shareEvent: true });
    expect(copies).toHaveLength(2);
    expect(event.messages).toHaveLength(2);
  });

  it("passes the caller's object itself without copyEvents", async () => {
    const { bus } = recordingBus(false);
    const original = message();
    bus.on("message_end", (event) => {
      event.message.role = "changed";
    });
    await bus.emit("message_end", {
      message: original,
      error: new Error("e"),
      signal: new AbortController().signal,
    });
    expect(original.role).toBe("changed");
  });
});

describe("createHookBus: validateResult", () => {
  const validateResult = (result: unknown) => {
    if (result === undefined) return undefined;
    const messages = (result as { messages?: unknown }).messages;
    return Array.isArray(messages) ? undefined : `messages must be an array, got ${typeof messages}`;
  };

  it("reports an invalid result as HOOK_INVALID_RESULT naming the extension, and keeps the previous one", async () => {
    const { bus, reported } = recordingBus(true);
    const good = { messages: [message()] };
    bus.on("context", () => good, { extensionId: "good" });
    bus.on("context", () => ({ messages: "x" }), { extensionId: "bad" });
    const outcome = await bus.intercept("context", { messages: [] }, { validateResult });
    expect(outcome.result).toEqual(good);
    expect(reported.map((event) => [event.error.code, event.extensionId, event.hookName])).toEqual([
      ["HOOK_INVALID_RESULT", "bad", "context"],
    ]);
    expect(reported[0]?.error.message).toBe(
      'Extension "bad" returned an invalid result from hook "context" (ignored): messages must be an array, got string',
    );
  });

  it("counts a validator that throws as a refusal, with its message", async () => {
    const { bus, reported } = recordingBus(false);
    bus.on("context", () => ({ messages: [] }), { extensionId: "x" });
    const outcome = await bus.intercept(
      "context",
      { messages: [] },
      {
        validateResult: () => {
          throw new Error("validator broke");
        },
      },
    );
    expect(outcome.result).toBeUndefined();
    expect(reported[0]?.error.message).toContain("validator broke");
  });
});
