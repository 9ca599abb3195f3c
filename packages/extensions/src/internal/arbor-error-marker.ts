/**
 * The global-symbol marker shared by every Arbor error. `@arbor/providers`' `ArborError` sets the
 * same symbol, so `ArborError.isInstance` recognises errors from this package without either package
 * importing the other (this package sits in layer 0 and imports no other `@arbor` package).
 */
const ARBOR_ERROR_MARKER = Symbol.for("arbor.error");

/** Sets the non-enumerable Arbor error marker on `error`. Mutates `error`. */
export function markAsArborError(error: Error): void {
  Object.defineProperty(error, ARBOR_ERROR_MARKER, { value: true, enumerable: false });
}

/** True when `value` carries the Arbor error marker, whichever package or copy created it. */
export function hasArborErrorMarker(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[ARBOR_ERROR_MARKER] === true
  );
}
