import { constants, type Stats } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import { ToolError } from "./tool-error";

/** What kind of file a non-regular path is, for messages ("a FIFO", "a character device"). */
function describeKind(stat: Stats): string {
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  if (stat.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

function refuse(tool: string, shownPath: string, stat: Stats): never {
  if (stat.isDirectory()) throw new Error(`${shownPath} is a folder, not a file`);
  throw new ToolError(
    "TOOL_NOT_REGULAR_FILE",
    shownPath,
    `${tool}: ${shownPath} is ${describeKind(stat)}, not a regular file; ${tool} only works on regular files`,
  );
}

/** How {@link openRegularFile} opens the file. */
export interface OpenRegularFileOptions {
  /** Tool name, for messages. */
  tool: string;
  /** The path as the model gave it, for messages. */
  shownPath: string;
  /** `read` opens an existing file; `write` creates or truncates it. */
  mode: "read" | "write";
}

/**
 * Opens `realPath` (a path with its symlinks already resolved) only if it is a regular file: FIFOs,
 * devices, sockets and folders are refused before they are opened (so a FIFO cannot block and a
 * device is never touched), and checked again on the open descriptor (non-blocking, no controlling
 * terminal, final symlink not followed) in case the path changed in between. The caller closes
 * the handle.
 * @throws Error `File not found: …` (read), `… is a folder, not a file`; ToolError
 * `TOOL_NOT_REGULAR_FILE`; the file system's error otherwise.
 */
export async function openRegularFile(
  realPath: string,
  options: OpenRegularFileOptions,
): Promise<FileHandle> {
  const { tool, shownPath } = options;
  const before = await fs.stat(realPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" && options.mode === "write") return undefined;
    throw error.code === "ENOENT" ? new Error(`File not found: ${shownPath}`) : error;
  });
  if (before !== undefined && !before.isFile()) refuse(tool, shownPath, before);
  const flags =
    options.mode === "read" ? constants.O_RDONLY : constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC;
  const handle = await fs.open(
    realPath,
    flags | constants.O_NONBLOCK | constants.O_NOCTTY | constants.O_NOFOLLOW,
    0o666,
  );
  const after = await handle.stat();
  if (!after.isFile()) {
    await handle.close();
    refuse(tool, shownPath, after);
  }
  return handle;
}
