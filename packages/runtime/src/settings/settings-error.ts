import { ArborError, hasErrorMarker, setErrorMarker } from "@arbor/providers";

const MARKER = Symbol.for("arbor.error.settings");

/** Stable codes of {@link SettingsError}. */
export type SettingsErrorCode = "SETTINGS_PARSE_FAILED" | "SETTINGS_INVALID" | "SETTINGS_READ_FAILED";

/**
 * A settings file could not be used. The message names the file and, for `SETTINGS_INVALID`, the
 * key path (for example `compaction.reserveTokens`) and what was expected.
 */
export class SettingsError extends ArborError {
  override readonly code: SettingsErrorCode;
  /** The settings file at fault. */
  readonly filePath: string;
  /** Dotted key path of the invalid value (`SETTINGS_INVALID` only). */
  readonly keyPath: string | undefined;

  constructor(code: SettingsErrorCode, filePath: string, message: string, keyPath?: string, cause?: unknown) {
    super(code, message, { cause });
    this.name = "SettingsError";
    setErrorMarker(this, MARKER);
    this.code = code;
    this.filePath = filePath;
    this.keyPath = keyPath;
  }

  /**
   * True for a `SettingsError` only (not for other Arbor errors), whichever copy of the package created
   * the error: checks the global-symbol marker `Symbol.for("arbor.error.settings")`, not the prototype chain.
   */
  static override isInstance(value: unknown): value is SettingsError {
    return hasErrorMarker(value, MARKER);
  }
}
