import { formatBytes } from "../format/format-bytes";
import { type CodingTool, textOutput } from "./coding-tool";
import { diffReplacement } from "./diff-replacement";
import { firstInvalidUtf8Byte } from "./first-invalid-utf8-byte";
import { openRegularFile } from "./open-regular-file";
import type { PathGuard } from "./path-guard";
import { requireString } from "./tool-arguments";
import { ToolError } from "./tool-error";

/** The largest file `edit` changes (it holds the file in memory). */
export const MAX_EDIT_BYTES = 64 * 1024 * 1024;

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    count++;
  }
  return count;
}

/**
 * Reads the file to edit: a regular file of at most {@link MAX_EDIT_BYTES} that is valid UTF-8 (a BOM
 * is kept as part of the text, so it is written back).
 */
async function readEditableText(realPath: string, filePath: string): Promise<string> {
  const handle = await openRegularFile(realPath, { tool: "edit", shownPath: filePath, mode: "read" });
  let bytes: Buffer;
  try {
    const { size } = await handle.stat();
    if (size > MAX_EDIT_BYTES) {
      throw new ToolError(
        "TOOL_FILE_TOO_LARGE",
        filePath,
        `edit: ${filePath} is ${formatBytes(size)}; edit changes files up to ${formatBytes(MAX_EDIT_BYTES)} (use bash, for example sed, for larger ones)`,
      );
    }
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  const invalid = firstInvalidUtf8Byte(bytes);
  if (invalid !== -1) {
    throw new ToolError(
      "TOOL_NOT_UTF8",
      filePath,
      `edit: ${filePath} is not valid UTF-8 (invalid byte 0x${(bytes[invalid] as number).toString(16).padStart(2, "0")} at byte offset ${invalid}); edit only changes UTF-8 text files, so nothing was changed`,
    );
  }
  return bytes.toString("utf8");
}

/**
 * The `edit` tool: replaces exactly one occurrence of `oldText` with `newText` in a file. Throws when the
 * file is missing, not a regular file (`TOOL_NOT_REGULAR_FILE`), not valid UTF-8 (`TOOL_NOT_UTF8`),
 * larger than 64 MB (`TOOL_FILE_TOO_LARGE`), outside the allowed folders (`TOOL_PATH_OUTSIDE_FOLDER`),
 * when `oldText` is empty, absent, or occurs more than once (the model must add context to make it
 * unique), or the replacement changes nothing. The file is unchanged whenever it throws. The result
 * tells the model the changed line range; its `details` carry `path`, `firstLine`, `lastLine` and
 * `diff`, the change as a unified diff (see `diffReplacement`), stored with the tool result.
 */
export function createEditTool(guard: PathGuard): CodingTool {
  return {
    name: "edit",
    description:
      "Edit a file by exact text replacement: oldText must match exactly one region of the file (include surrounding lines to make it unique); it is replaced by newText.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File to edit, relative to the working folder or absolute" },
        oldText: { type: "string", description: "Exact text to find; must occur exactly once" },
        newText: { type: "string", description: "Replacement text" },
      },
      required: ["path", "oldText", "newText"],
    },
    async execute(args) {
      const filePath = requireString("edit", args, "path");
      const oldText = requireString("edit", args, "oldText");
      const newText = requireString("edit", args, "newText");
      if (oldText.length === 0) throw new Error("edit: oldText must not be empty");
      if (oldText === newText) throw new Error("edit: oldText and newText are identical; nothing to change");
      const realPath = await guard.resolve("edit", filePath, "write");
      const original = await readEditableText(realPath, filePath);
      const occurrences = countOccurrences(original, oldText);
      if (occurrences === 0) throw new Error(`oldText was not found in ${filePath}; it must match exactly`);
      if (occurrences > 1) {
        throw new Error(
          `oldText occurs ${occurrences} times in ${filePath}; include more surrounding text so it matches once`,
        );
      }
      const index = original.indexOf(oldText);
      const updated = original.slice(0, index) + newText + original.slice(index + oldText.length);
      const handle = await openRegularFile(realPath, { tool: "edit", shownPath: filePath, mode: "write" });
      try {
        await handle.writeFile(updated, "utf8");
      } finally {
        await handle.close();
      }
      const firstLine = original.slice(0, index).split("\n").length;
      const lastLine = firstLine + newText.split("\n").length - 1;
      return textOutput(`Edited ${filePath} (lines ${firstLine}-${lastLine})`, {
        path: filePath,
        firstLine,
        lastLine,
        diff: diffReplacement({ path: filePath, original, index, oldText, newText }),
      });
    },
  };
}
