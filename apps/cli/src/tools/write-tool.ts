import fs from "node:fs/promises";
import path from "node:path";
import { type CodingTool, textOutput } from "./coding-tool";
import { openRegularFile } from "./open-regular-file";
import type { PathGuard } from "./path-guard";
import { requireString } from "./tool-arguments";

/**
 * The `write` tool: creates or overwrites a file with `content`, creating parent folders. Only
 * regular files inside the folders the {@link PathGuard} allows are written. Throws when the path is a
 * folder, a FIFO, device or socket (`TOOL_NOT_REGULAR_FILE`, nothing is written), is refused
 * (`TOOL_PATH_OUTSIDE_FOLDER`), or cannot be written.
 */
export function createWriteTool(guard: PathGuard): CodingTool {
  return {
    name: "write",
    description: "Write a file: creates it (and its parent folders) or overwrites it with the given content.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File to write, relative to the working folder or absolute" },
        content: { type: "string", description: "The complete new content of the file" },
      },
      required: ["path", "content"],
    },
    async execute(args) {
      const filePath = requireString("write", args, "path");
      const content = requireString("write", args, "content");
      const realPath = await guard.resolve("write", filePath, "write");
      const existed = await fs.lstat(realPath).then(
        () => true,
        () => false,
      );
      await fs.mkdir(path.dirname(realPath), { recursive: true });
      const handle = await openRegularFile(realPath, { tool: "write", shownPath: filePath, mode: "write" });
      try {
        await handle.writeFile(content, "utf8");
      } finally {
        await handle.close();
      }
      const bytes = Buffer.byteLength(content, "utf8");
      return textOutput(`${existed ? "Overwrote" : "Created"} ${filePath} (${bytes} bytes)`, {
        path: filePath,
        bytes,
        created: !existed,
      });
    },
  };
}
