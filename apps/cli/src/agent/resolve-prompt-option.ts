import path from "node:path";
import { usageError } from "../usage/usage-error";
import { readCappedTextFile } from "./read-capped-text-file";

/** The most `--system-prompt FILE` / `--append-system-prompt FILE` may be: 256 KiB. */
export const MAX_PROMPT_FILE_BYTES = 256 * 1024;

/**
 * The text of `--system-prompt VALUE` or `--append-system-prompt VALUE`: the content of the file
 * VALUE names (relative to `cwd`) when it is one, else VALUE itself. A VALUE that looks like a file
 * name (one word with a `/` or ending in `.md`/`.txt`) but names no file is an error rather than
 * being sent as text.
 * @throws CliError `CLI_USAGE` for a missing file that looks like one, an empty text, or a file over
 *   {@link MAX_PROMPT_FILE_BYTES}.
 */
export function resolvePromptOption(
  flag: string,
  value: string,
  cwd: string,
): { text: string; source: string } {
  const file = path.resolve(cwd, value);
  const read = /\n/.test(value) ? undefined : readCappedTextFile(file, MAX_PROMPT_FILE_BYTES);
  if (read !== undefined) {
    if (read.truncated) {
      throw usageError("", `${flag} ${value}: the file is larger than ${MAX_PROMPT_FILE_BYTES / 1024} KiB`);
    }
    return { text: read.text, source: file };
  }
  if (!/\s/.test(value) && (value.includes("/") || /\.(md|txt)$/i.test(value))) {
    throw usageError("", `${flag} ${value}: no such file (give a file, or the text itself)`);
  }
  if (value.trim() === "") throw usageError("", `${flag}: empty text`);
  return { text: value, source: `${flag} text` };
}
