import { hasErrorMarker, setErrorMarker } from "./error-marker";

const MARKER = Symbol.for("arbor.error");

/**
 * Base class of every error Arbor throws on purpose. Each error carries a stable string `code` for
 * `switch` statements and a message that names where and what went wrong.
 *
 * `ArborError.isInstance(value)` works across duplicated installs of the package (it checks a
 * global-symbol marker, not the prototype chain), so mixing layer versions stays safe. Other packages
 * (for example `@arbor/extensions`) define errors with the same marker without importing this one.
 *
 * Every subclass has its own marker and its own static `isInstance` (see {@link setErrorMarker}):
 * `CompactionError.isInstance(new RuntimeError(...))` is `false`. A subclass you write should do the
 * same, or its `isInstance` is `ArborError`'s and accepts every Arbor error.
 */
export class ArborError extends Error {
  /** Stable machine-readable code, for example `SESSION_LOCKED`. */
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ArborError";
    this.code = code;
    setErrorMarker(this, MARKER);
  }

  /** True for any Arbor error, whichever copy of the package created it. */
  static isInstance(value: unknown): value is ArborError {
    return hasErrorMarker(value, MARKER);
  }
}
