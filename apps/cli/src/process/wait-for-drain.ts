/** What {@link waitForDrain} needs of a stream: Node's `once`/`removeListener` (optional in `CliIo`). */
export interface DrainableStream {
  once?(event: "drain" | "close" | "error", listener: () => void): unknown;
  removeListener?(event: "drain" | "close" | "error", listener: () => void): unknown;
}

/**
 * Waits until `stream` can take more after a write that returned `wrote`: resolves at once unless
 * `wrote` is `false` (the stream's buffer is full, as a pipe whose reader is slower than arbor) and
 * the stream has `once`; then on its `drain`, or its `close` or `error` (what follows an error is the
 * stream's error handler's business). A command that writes a large output in parts awaits this
 * between parts, so the output is never held in memory whole. Never rejects.
 */
export function waitForDrain(stream: DrainableStream, wrote: unknown): Promise<void> {
  if (wrote !== false || typeof stream.once !== "function") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ["drain", "close", "error"] as const) stream.removeListener?.(event, done);
      resolve();
    };
    for (const event of ["drain", "close", "error"] as const) stream.once?.(event, done);
  });
}
