import type { AgentEvent } from "../agent-event";

/** Delivers events to `onEvent` one at a time, in call order, even when called concurrently. */
export interface SerialEmitter {
  /** Queues `event`; resolves once `onEvent` has handled it (and everything queued before it). */
  emit(event: AgentEvent): Promise<void>;
  /** True once `onEvent` has thrown. */
  readonly failed: boolean;
}

/**
 * Creates a {@link SerialEmitter}. When `onEvent` throws, `onFailure` is called once with the error,
 * the failing `emit` rejects, and so does every later one (the run is over).
 */
export function createSerialEmitter(
  onEvent: ((event: AgentEvent) => void | Promise<void>) | undefined,
  onFailure: (error: unknown) => void,
): SerialEmitter {
  let tail: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  return {
    get failed() {
      return failure !== undefined;
    },
    emit(event) {
      if (onEvent === undefined) return Promise.resolve();
      const next = tail.then(async () => {
        if (failure) throw failure.error;
        try {
          await onEvent(event);
        } catch (error) {
          failure = { error };
          onFailure(error);
          throw error;
        }
      });
      tail = next.catch(() => {});
      return next;
    },
  };
}
