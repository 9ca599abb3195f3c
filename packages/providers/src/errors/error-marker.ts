/**
 * Sets `marker` (a `Symbol.for(...)` key) on `error` as a non-enumerable, read-only property. Error
 * classes call it in their constructor so that their static `isInstance` can recognise instances
 * made by any copy of the package (a duplicated install, another bundle), where `instanceof` fails.
 * Mutates `error`.
 *
 * Each error class uses its own marker (`Symbol.for("arbor.error.<name>")`), and a subclass sets its
 * parent's markers too (by calling the parent constructor), so `ArborError.isInstance` accepts every
 * Arbor error while `CompactionError.isInstance` accepts only compaction errors.
 */
export function setErrorMarker(error: object, marker: symbol): void {
  Object.defineProperty(error, marker, { value: true, enumerable: false });
}

/** True when `value` is an object that carries `marker` (see {@link setErrorMarker}). Never throws. */
export function hasErrorMarker(value: unknown, marker: symbol): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}
