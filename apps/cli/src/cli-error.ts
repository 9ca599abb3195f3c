import { ArborError } from "@arbor/providers";

/** Stable codes of {@link CliError}. */
export type CliErrorCode =
  | "CLI_USAGE"
  | "CLI_FILE_NOT_FOUND"
  | "CLI_MISSING_API_KEY"
  | "CLI_UNKNOWN_MODEL"
  | "CLI_MODELS_FILE_INVALID";

/** A user error detected by the CLI itself (bad flags, missing file, missing key). */
export class CliError extends ArborError {
  override readonly code: CliErrorCode;
  /** Process exit code to use: 2 for usage errors, 1 otherwise. */
  readonly exitCode: number;

  constructor(code: CliErrorCode, message: string, exitCode = code === "CLI_USAGE" ? 2 : 1) {
    super(code, message);
    this.name = "CliError";
    this.code = code;
    this.exitCode = exitCode;
  }
}
