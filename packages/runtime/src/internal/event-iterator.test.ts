import { describe, expect, it } from "vitest";
import type { AgentSessionEvent } from "../events/session-events";
import { createEventIterator } from "./event-iterator";
import type { AgentSessionListener } from "./session-core";

function source() {
  const listeners = new Set<AgentSessionListener>();
  return {
    listeners,
    subscribe(listener: AgentSessionListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event: AgentSessionEvent) {
      for (const listener of listeners) listener(event);
    },
  };
}

describe("createEventIterator", () => {
  it("yields buffered and later events in order, and unsubscribes on break", async () => {
    const events = source();
    const iterator = createEventIterator((listener) => events.subscribe(listener));
    events.emit({ type: "agent_start" });
    const seen: string[] = [];
    const later = setTimeout(() => events.emit({ type: "turn_start", turnIndex: 0, timestamp: 0 }), 5);
    for await (const event of iterator) {
      seen.push(event.type);
      if (seen.length === 2) break;
    }
    clearTimeout(later);
    expect(seen).toEqual(["agent_start", "turn_start"]);
    expect(events.listeners.size).toBe(0);
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it("return() ends a pending next()", async () => {
    const events = source();
    const iterator = createEventIterator((listener) => events.subscribe(listener));
    const pending = iterator.next();
    await iterator.return?.();
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
  });
});
