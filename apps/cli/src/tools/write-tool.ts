import fs from "node:fs/promises";
import path from "node:path";
import { type CodingTool, textOutput } from "./coding-tool";
import { requireString, resolveToolPath } from "./tool-arguments";

/**
 * The `write` tool: creates or overwrites a file with `content`, creating parent folders. Throws when
 * the path is a folder or cannot be written.
 */
export function createWriteTool(cwd: string): CodingTool {
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
      const absolute = resolveToolPath(cwd, filePath);
      const existed = await fs.stat(absolute).then(
        (stat) => {
          if (stat.isDirectory()) throw new Error(`${filePath} is a folder, not a file`);
          return true;
        },
        () => false,
      );
      await fs.mkdir(path.dirname(absolute), { recursive: true });
      await fs.writeFile(absolute, content, "utf8");
      const bytes = Buffer.byteLength(content, "utf8");
      return textOutput(`${existed ? "Overwrote" : "Created"} ${filePath} (${bytes} bytes)`, {
        path: filePath,
        bytes,
        created: !existed,
      });
    },
  };
}
