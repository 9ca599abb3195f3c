import { hasMarker, markAsArborError } from "./internal/arbor-error-marker";

const MARKER = Symbol.for("arbor.error.extension");

/**
 * Codes of {@link ExtensionError}. Each error names the file (when the extension came from one) in
 * `file` and in its message:
 * - `EXTENSION_LOAD_FAILED`: the file is missing, has an unsupported extension, or its module threw
 *   while importing (`cause` holds the original error);
 * - `EXTENSION_INVALID`: the module has no default export, or the export is not an extension
 *   definition (`name` must be a non-empty string, `setup` a function);
 * - `EXTENSION_API_VERSION`: the definition declares an `apiVersion` this package does not support;
 * - `EXTENSION_SETUP_FAILED`: the extension's `setup` threw (`cause` holds the original error);
 * - `EXTENSION_TIMEOUT`: importing the file or running `setup` did not finish within the timeout
 *   (`timeoutMs` holds it): a top-level `await` or a `setup` promise that never settles;
 * - `EXTENSION_UNKNOWN_HOOK`: `on` was called with a name the bus does not know (a typo, a kebab-case
 *   spelling, a hook the host does not implement); `hookName` holds the name, `closestHookName` the
 *   known name closest to it (by edit distance), also named in the message;
 * - `EXTENSION_UNSUPPORTED`: the extension used a member of its API the host does not implement
 *   (a pi `ExtensionAPI` method Arbor has no counterpart for); `member` names it.
 */
export type ExtensionErrorCode =
  | "EXTENSION_LOAD_FAILED"
  | "EXTENSION_INVALID"
  | "EXTENSION_API_VERSION"
  | "EXTENSION_SETUP_FAILED"
  | "EXTENSION_TIMEOUT"
  | "EXTENSION_UNKNOWN_HOOK"
  | "EXTENSION_UNSUPPORTED";

/** Fields of an {@link ExtensionError} besides its code. */
export interface ExtensionErrorDetails {
  /** Absolute path of the extension file, when the extension was loaded from one. */
  file?: string;
  /** Name of the extension, when known. */
  extensionName?: string;
  /** The original error. */
  cause?: unknown;
  /** The limit that was exceeded (`EXTENSION_TIMEOUT` only). */
  timeoutMs?: number;
  /** The unknown name passed to `on` (`EXTENSION_UNKNOWN_HOOK` only). */
  hookName?: string;
  /** The known hook name closest to `hookName` (`EXTENSION_UNKNOWN_HOOK` only). */
  closestHookName?: string;
  /** The API member that is not supported (`EXTENSION_UNSUPPORTED` only), e.g. `pi.registerTool`. */
  member?: string;
}

/**
 * An extension could not be loaded, validated or set up. Carries the Arbor error marker
 * (`Symbol.for("arbor.error")`), so `ArborError.isInstance` recognises it too.
 */
export class ExtensionError extends Error {
  /** Stable machine-readable code. */
  readonly code: ExtensionErrorCode;
  /** Absolute path of the extension file, when the extension was loaded from one. */
  readonly file: string | undefined;
  /** Name of the extension, when known. */
  readonly extensionName: string | undefined;
  /** The limit that was exceeded (`EXTENSION_TIMEOUT` only). */
  readonly timeoutMs: number | undefined;
  /** The unknown name passed to `on` (`EXTENSION_UNKNOWN_HOOK` only). */
  readonly hookName: string | undefined;
  /** The known hook name closest to `hookName` (`EXTENSION_UNKNOWN_HOOK` only). */
  readonly closestHookName: string | undefined;
  /** The API member that is not supported (`EXTENSION_UNSUPPORTED` only). */
  readonly member: string | undefined;

  constructor(code: ExtensionErrorCode, message: string, details: ExtensionErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "ExtensionError";
    this.code = code;
    this.file = details.file;
    this.extensionName = details.extensionName;
    this.timeoutMs = details.timeoutMs;
    this.hookName = details.hookName;
    this.closestHookName = details.closestHookName;
    this.member = details.member;
    markAsArborError(this, MARKER);
  }

  /** True for an `ExtensionError` from any copy of this package (checks the marker `Symbol.for("arbor.error.extension")`). */
  static isInstance(value: unknown): value is ExtensionError {
    return hasMarker(value, MARKER);
  }
}
