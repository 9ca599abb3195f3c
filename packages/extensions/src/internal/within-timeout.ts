/**
 * Settles like `work`, or rejects with `onTimeout()` once `timeoutMs` elapsed first (`Infinity`:
 * waits as long as `work` does). While it waits, the timer keeps the process alive: a promise that
 * never settles (an extension's top-level `await` on nothing) then ends in a typed error instead of
 * Node quietly exiting with code 13 because nothing is left to run. The timer is cleared as soon as
 * `work` settles; a late settlement of `work` is ignored.
 */
export function withinTimeout<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  if (!Number.isFinite(timeoutMs)) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** @throws RangeError when `timeoutMs` is not a positive number (`Infinity` allowed). */
export function assertTimeoutMs(timeoutMs: number, what: string): void {
  if (!(typeof timeoutMs === "number" && timeoutMs > 0)) {
    throw new RangeError(
      `${what} must be a positive number of milliseconds (or Infinity), got ${String(timeoutMs)}`,
    );
  }
}
