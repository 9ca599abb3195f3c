import { ArborError, hasErrorMarker, setErrorMarker } from "@arbor/providers";

const MARKER = Symbol.for("arbor.error.compaction-settings");

/**
 * Thrown by {@link resolveCompactionSettings} for a setting that is present but invalid. `key` is the
 * full path of the offending setting, for example `compaction.modelOverrides["anthropic/claude"].reserveTokens`;
 * `value` is the value found there.
 */
export class CompactionSettingsError extends ArborError {
  override readonly code = "INVALID_COMPACTION_SETTING" as const;
  /** Full setting path, as written in the message. */
  readonly key: string;
  /** The rejected value. */
  readonly value: unknown;

  constructor(key: string, value: unknown, expected: string) {
    super("INVALID_COMPACTION_SETTING", `Invalid ${key} setting: ${describe(value)}. Expected ${expected}.`);
    this.name = "CompactionSettingsError";
    setErrorMarker(this, MARKER);
    this.key = key;
    this.value = value;
  }

  /**
   * True for a `CompactionSettingsError` only (not for other Arbor errors), whichever copy of the package created
   * the error: checks the global-symbol marker `Symbol.for("arbor.error.compaction-settings")`, not the prototype chain.
   */
  static override isInstance(value: unknown): value is CompactionSettingsError {
    return hasErrorMarker(value, MARKER);
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object" && value !== null) {
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  }
  return String(value);
}
