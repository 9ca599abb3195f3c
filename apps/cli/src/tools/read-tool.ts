import fs from "node:fs/promises";
import path from "node:path";
import { type CodingTool, textOutput } from "./coding-tool";
import { optionalPositiveInteger, requireString, resolveToolPath } from "./tool-arguments";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, truncateHead } from "./truncate-output";

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/**
 * The `read` tool: returns a text file's lines from `offset` (1-based, default 1), at most `limit`
 * lines, capped at 2000 lines / 50 KB with a note telling the model how to continue. Images (png, jpg,
 * gif, webp) come back as an image block. Throws for a missing file, a folder, or an offset past the end.
 */
export function createReadTool(cwd: string): CodingTool {
  return {
    name: "read",
    description: `Read a file. Text output is limited to ${MAX_OUTPUT_LINES} lines or ${MAX_OUTPUT_BYTES / 1024} KB; use offset (1-based line) and limit to page through larger files. Images come back as attachments.`,
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File to read, relative to the working folder or absolute" },
        offset: { type: "number", description: "First line to return (1-based)" },
        limit: { type: "number", description: "Maximum number of lines to return" },
      },
      required: ["path"],
    },
    async execute(args) {
      const filePath = requireString("read", args, "path");
      const offset = optionalPositiveInteger("read", args, "offset") ?? 1;
      const limit = optionalPositiveInteger("read", args, "limit");
      const absolute = resolveToolPath(cwd, filePath);
      const stat = await fs.stat(absolute).catch(() => undefined);
      if (stat === undefined) throw new Error(`File not found: ${filePath}`);
      if (stat.isDirectory()) throw new Error(`${filePath} is a folder, not a file`);
      const mimeType = IMAGE_TYPES[path.extname(absolute).toLowerCase()];
      if (mimeType !== undefined) {
        const data = (await fs.readFile(absolute)).toString("base64");
        return {
          content: [
            { type: "text", text: `Read image ${filePath} (${stat.size} bytes)` },
            { type: "image", data, mimeType },
          ],
          details: { path: filePath, bytes: stat.size },
        };
      }
      const text = await fs.readFile(absolute, "utf8");
      const allLines = text.split("\n");
      if (allLines.length > 1 && allLines.at(-1) === "") allLines.pop();
      if (offset > allLines.length && !(offset === 1 && text === "")) {
        throw new Error(`Offset ${offset} is past the end of ${filePath} (${allLines.length} lines)`);
      }
      const start = offset - 1;
      const wanted = allLines.slice(start, limit === undefined ? undefined : start + limit);
      const kept = truncateHead(wanted);
      const lastShown = start + kept.keptLines;
      let output = kept.text;
      if (kept.truncated || lastShown < allLines.length) {
        output += `\n\n[Showing lines ${offset}-${lastShown} of ${allLines.length}. Use offset=${lastShown + 1} to continue.]`;
      }
      return textOutput(output, {
        path: filePath,
        firstLine: offset,
        lastLine: lastShown,
        totalLines: allLines.length,
      });
    },
  };
}
