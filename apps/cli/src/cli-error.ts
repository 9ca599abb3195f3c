import { ArborError } from "@arbor/providers";

/**
 * Stable codes of {@link CliError}:
 * - `CLI_USAGE`: bad flags or arguments (exit code 2);
 * - `CLI_FILE_NOT_FOUND`: a session file given on the command line does not exist;
 * - `CLI_SESSION_CORRUPT`: a session file has corrupt lines (the message names the first line);
 * - `CLI_SESSION_EMPTY`: an offline command was given an empty file (no header: no session yet);
 * - `CLI_MISSING_API_KEY`: the provider's key variable is not set (the message names it);
 * - `CLI_UNKNOWN_MODEL`: no built-in or declared model has that id;
 * - `CLI_MODELS_FILE_INVALID`: a models file is not valid (the message names the file and the key);
 * - `CLI_PROJECT_MODEL_REFUSED`: a project's models file redefines a built-in or user-defined model id,
 *   or names an `apiKeyEnv` the user has not allowed (the message names the file, model and rule);
 * - `CLI_TRUST_STORE_INVALID`: `$ARBOR_HOME/trusted-folders.json` cannot be read (it is left unchanged);
 * - `CLI_EXPORT_FAILED`: an export could not be written (the message names the file and why);
 * - `CLI_STDIN_INVALID`: what was piped into print mode is not UTF-8 text or is too large;
 * - `CLI_COMPACTION_CANCELLED`: an extension's `session_before_compact` cancelled `arbor compact`
 *   (nothing was written; the message names the extension).
 */
export type CliErrorCode =
  | "CLI_USAGE"
  | "CLI_FILE_NOT_FOUND"
  | "CLI_SESSION_CORRUPT"
  | "CLI_SESSION_EMPTY"
  | "CLI_MISSING_API_KEY"
  | "CLI_UNKNOWN_MODEL"
  | "CLI_MODELS_FILE_INVALID"
  | "CLI_PROJECT_MODEL_REFUSED"
  | "CLI_TRUST_STORE_INVALID"
  | "CLI_EXPORT_FAILED"
  | "CLI_STDIN_INVALID"
  | "CLI_COMPACTION_CANCELLED";

/** A user error detected by the CLI itself (bad flags, missing file, missing key). */
export class CliError extends ArborError {
  declare readonly code: CliErrorCode;
  /** Process exit code to use: 2 for usage errors, 1 otherwise. */
  readonly exitCode: number;

  constructor(code: CliErrorCode, message: string, exitCode = code === "CLI_USAGE" ? 2 : 1) {
    super(code, message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}
