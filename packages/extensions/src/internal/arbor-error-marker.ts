/**
 * The global-symbol marker shared by every Arbor error. `@arbor/providers`' `ArborError` sets the
 * same symbol, so `ArborError.isInstance` recognises errors from this package without either package
 * importing the other (this package sits in layer 0 and imports no other `@arbor` package).
 */
const ARBOR_ERROR_MARKER = Symbol.for("arbor.error");

/**
 * Sets the non-enumerable Arbor error marker on `error`, plus `classMarker`, the marker of the error's
 * own class (its static `isInstance` checks that one). Mutates `error`.
 */
export function markAsArborError(error: Error, classMarker: symbol): void {
  Object.defineProperty(error, ARBOR_ERROR_MARKER, { value: true, enumerable: false });
  Object.defineProperty(error, classMarker, { value: true, enumerable: false });
}

/** True when `value` is an object carrying `marker`, whichever package or copy set it. Never throws. */
export function hasMarker(value: unknown, marker: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}
