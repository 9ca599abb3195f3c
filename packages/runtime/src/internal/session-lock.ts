import { AsyncLocalStorage } from "node:async_hooks";

/**
 * A FIFO mutex for the operations that change a session's tree (a prompt run, a compaction, a
 * navigation, a fork, an extension's append). Operations run one at a time, in call order.
 *
 * Reentrancy: code running inside an operation (for example an extension handler the operation
 * awaits) is recognised by `isHeldByCaller()` through async context, so it can act directly instead
 * of queueing behind the operation it is part of (which would wait for itself). Each operation gets
 * its own token: a handler abandoned after a timeout that acts later is no longer "inside".
 */
export interface SessionLock {
  /** Runs `operation` once every earlier operation settled. Resolves or rejects as it does. */
  run<T>(label: string, operation: () => Promise<T>): Promise<T>;
  /** True when the current async context is inside the operation holding the lock now. */
  isHeldByCaller(): boolean;
  /** Label of the operation holding the lock, or undefined when idle. */
  readonly current: string | undefined;
  /** Resolves once every operation queued so far has settled. */
  idle(): Promise<void>;
}

/** Creates a {@link SessionLock}. */
export function createSessionLock(): SessionLock {
  const context = new AsyncLocalStorage<object>();
  let tail: Promise<unknown> = Promise.resolve();
  let active: { label: string; token: object } | undefined;
  return {
    run<T>(label: string, operation: () => Promise<T>): Promise<T> {
      const result = tail.then(() => {
        const token = {};
        active = { label, token };
        return context.run(token, operation).finally(() => {
          active = undefined;
        });
      });
      tail = result.catch(() => undefined);
      return result;
    },
    isHeldByCaller() {
      const store = context.getStore();
      return store !== undefined && store === active?.token;
    },
    get current() {
      return active?.label;
    },
    async idle() {
      await tail;
    },
  };
}
