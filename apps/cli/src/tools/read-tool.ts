import path from "node:path";
import { formatBytes } from "../format/format-bytes";
import type { CodingTool } from "./coding-tool";
import { openRegularFile } from "./open-regular-file";
import type { PathGuard } from "./path-guard";
import { readTextLines } from "./read-text-lines";
import { optionalPositiveInteger, requireString } from "./tool-arguments";
import { ToolError } from "./tool-error";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./truncate-output";

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** The largest image `read` returns (larger ones are refused, not loaded). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/**
 * The `read` tool: returns a text file's lines from `offset` (1-based, default 1), at most `limit`
 * lines, capped at 2000 lines / 50 KB with a note telling the model how to continue. The file is read
 * in chunks, never whole, so any size pages (a line longer than 50 KB shows its first 50 KB). Images
 * (png, jpg, gif, webp, up to 20 MB) come back as an image block. Only regular files inside the
 * folders the {@link PathGuard} allows are opened. Throws for a missing file, a folder, a FIFO, device
 * or socket (`TOOL_NOT_REGULAR_FILE`), a refused path (`TOOL_PATH_OUTSIDE_FOLDER`), or an offset past
 * the end.
 */
export function createReadTool(guard: PathGuard): CodingTool {
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
      const realPath = await guard.resolve("read", filePath, "read");
      const handle = await openRegularFile(realPath, { tool: "read", shownPath: filePath, mode: "read" });
      try {
        const { size } = await handle.stat();
        const mimeType = IMAGE_TYPES[path.extname(realPath).toLowerCase()];
        if (mimeType !== undefined) {
          if (size > MAX_IMAGE_BYTES) {
            throw new ToolError(
              "TOOL_FILE_TOO_LARGE",
              filePath,
              `read: ${filePath} is ${formatBytes(size)}; images larger than ${formatBytes(MAX_IMAGE_BYTES)} are not read`,
            );
          }
          const data = (await handle.readFile()).toString("base64");
          return {
            content: [
              { type: "text", text: `Read image ${filePath} (${size} bytes)` },
              { type: "image", data, mimeType },
            ],
            details: { path: filePath, bytes: size },
          };
        }
        const page = await readTextLines(handle, {
          offset,
          maxLines: Math.min(limit ?? MAX_OUTPUT_LINES, MAX_OUTPUT_LINES),
          maxBytes: MAX_OUTPUT_BYTES,
        });
        if (page.pastEndLines !== undefined) {
          throw new Error(`Offset ${offset} is past the end of ${filePath} (${page.pastEndLines} lines)`);
        }
        const lastShown = offset - 1 + page.lines.length;
        const of = page.totalLines === undefined ? `a ${formatBytes(size)} file` : String(page.totalLines);
        let output = page.lines.join("\n");
        if (page.firstLineCut) {
          output += `\n\n[Line ${offset} is longer than ${formatBytes(MAX_OUTPUT_BYTES)}; showing its first ${formatBytes(MAX_OUTPUT_BYTES)}. Use bash (cut -c, head -c) for the rest of it.${page.more ? ` Use offset=${offset + 1} for the next line.` : ""}]`;
        } else if (page.more) {
          output += `\n\n[Showing lines ${offset}-${lastShown} of ${of}. Use offset=${lastShown + 1} to continue.]`;
        }
        return {
          content: [{ type: "text", text: output }],
          details: {
            path: filePath,
            firstLine: offset,
            lastLine: lastShown,
            ...(page.totalLines !== undefined ? { totalLines: page.totalLines } : {}),
          },
        };
      } finally {
        await handle.close();
      }
    },
  };
}
