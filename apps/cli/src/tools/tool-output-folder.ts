import fs from "node:fs";
import os from "node:os";
import path from "node:path";

let folder: string | undefined;
let fileCount = 0;

/**
 * The private folder where tools keep full outputs that did not fit in a tool result: created on
 * first use under the temp folder as `arbor-tool-output-XXXXXX` with mode 0700, and removed with
 * everything in it when the process exits (normal exit, `process.exit`, or a handled signal; a
 * SIGKILL leaves it behind). Paths in it are valid only while this arbor process runs.
 */
export function toolOutputFolder(): string {
  if (folder === undefined) {
    const created = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-tool-output-"));
    fs.chmodSync(created, 0o700);
    folder = created;
    process.once("exit", () => {
      try {
        fs.rmSync(created, { recursive: true, force: true });
      } catch {
        // Best effort at exit: nothing left to report to.
      }
    });
  }
  return folder;
}

/** The tool output folder if it was created in this process, else undefined (nothing is created). */
export function existingToolOutputFolder(): string | undefined {
  return folder;
}

/**
 * Creates a new file in {@link toolOutputFolder} with mode 0600 (exclusive create, never follows an
 * existing path) and returns its path and open file descriptor; the caller closes the descriptor.
 * @throws the file system's error (for example ENOSPC).
 */
export function createToolOutputFile(prefix: string): { path: string; fd: number } {
  fileCount += 1;
  const file = path.join(toolOutputFolder(), `${prefix}-${fileCount}.log`);
  const fd = fs.openSync(file, "wx", 0o600);
  return { path: file, fd };
}
