import type { AgentSessionEvent } from "../events/session-events";
import type { AgentSessionListener } from "./session-core";

/**
 * An async iterator over events delivered to a listener: events are buffered until read; `return()`
 * (a `break` out of `for await`) unsubscribes. The iterator never ends on its own.
 */
export function createEventIterator(
  subscribe: (listener: AgentSessionListener) => () => void,
): AsyncIterableIterator<AgentSessionEvent> {
  const buffer: AgentSessionEvent[] = [];
  let waiting: ((result: IteratorResult<AgentSessionEvent>) => void) | undefined;
  let done = false;
  const unsubscribe = subscribe((event) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve({ value: event, done: false });
    } else buffer.push(event);
  });
  const iterator: AsyncIterableIterator<AgentSessionEvent> = {
    next() {
      const value = buffer.shift();
      if (value !== undefined) return Promise.resolve({ value, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return() {
      done = true;
      unsubscribe();
      buffer.length = 0;
      waiting?.({ value: undefined, done: true });
      waiting = undefined;
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
