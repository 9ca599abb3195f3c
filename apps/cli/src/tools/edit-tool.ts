import fs from "node:fs/promises";
import { type CodingTool, textOutput } from "./coding-tool";
import { requireString, resolveToolPath } from "./tool-arguments";

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    count++;
  }
  return count;
}

/**
 * The `edit` tool: replaces exactly one occurrence of `oldText` with `newText` in a file. Throws when the
 * file is missing, `oldText` is empty, absent, or occurs more than once (the model must add context to
 * make it unique), or the replacement changes nothing.
 */
export function createEditTool(cwd: string): CodingTool {
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
      const absolute = resolveToolPath(cwd, filePath);
      const original = await fs.readFile(absolute, "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new Error(error.code === "ENOENT" ? `File not found: ${filePath}` : error.message);
      });
      const occurrences = countOccurrences(original, oldText);
      if (occurrences === 0) throw new Error(`oldText was not found in ${filePath}; it must match exactly`);
      if (occurrences > 1) {
        throw new Error(
          `oldText occurs ${occurrences} times in ${filePath}; include more surrounding text so it matches once`,
        );
      }
      const index = original.indexOf(oldText);
      const updated = original.slice(0, index) + newText + original.slice(index + oldText.length);
      await fs.writeFile(absolute, updated, "utf8");
      const firstLine = original.slice(0, index).split("\n").length;
      const lastLine = firstLine + newText.split("\n").length - 1;
      return textOutput(`Edited ${filePath} (lines ${firstLine}-${lastLine})`, {
        path: filePath,
        firstLine,
        lastLine,
      });
    },
  };
}
