import { ArborError } from "@arbor/providers";

/**
 * Stable codes of {@link ToolError}:
 * - `TOOL_PATH_OUTSIDE_FOLDER`: a file tool's path (after resolving symlinks) is outside the working
 *   folder and the allowed folders, and the user did not allow it;
 * - `TOOL_NOT_REGULAR_FILE`: the path is a FIFO, a device, a socket or a folder;
 * - `TOOL_NOT_UTF8`: `edit` was given a file that is not valid UTF-8;
 * - `TOOL_FILE_TOO_LARGE`: the file is larger than the tool handles whole (edit, images).
 */
export type ToolErrorCode =
  | "TOOL_PATH_OUTSIDE_FOLDER"
  | "TOOL_NOT_REGULAR_FILE"
  | "TOOL_NOT_UTF8"
  | "TOOL_FILE_TOO_LARGE";

/**
 * A refused tool call. Thrown from a tool's `execute`: the agent loop turns it into an error tool
 * result whose text (the message, naming the tool and the path) the model sees.
 */
export class ToolError extends ArborError {
  declare readonly code: ToolErrorCode;
  /** The path as the model gave it. */
  readonly path: string;

  constructor(code: ToolErrorCode, path: string, message: string) {
    super(code, message);
    this.name = "ToolError";
    this.path = path;
  }
}
