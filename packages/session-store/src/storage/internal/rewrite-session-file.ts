import { randomBytes } from "node:crypto";
import { dirname } from "node:path";
import { SessionStorageError } from "../session-storage-error";
import type { RecordTable } from "./record-table";
import { serializeEntries } from "./serialize-entries";
import { errnoCode, type StorageFs, syncDirectory, writeTextFully } from "./storage-fs";

/** Result of {@link rewriteSessionFile}. */
export interface RewriteResult {
  size: number;
  /** Lines written, header included. */
  lines: number;
  backupPath?: string;
}

/**
 * Replaces the session file atomically: writes header + entries to a temp file next to it, fsyncs it,
 * keeps the original under `<session>.bak-<time>` (a hard link, or a copy where links are not
 * supported), renames the temp file over the session and fsyncs the directory. On success the table
 * is rebuilt for the new content (the caller removes its stale sidecar index). On failure the original is
 * untouched and `SESSION_WRITE_FAILED` / `SESSION_ENTRY_INVALID` is thrown.
 */
export function rewriteSessionFile(
  fs: StorageFs,
  path: string,
  header: Record<string, unknown>,
  entries: readonly Record<string, unknown>[],
  originalExists: boolean,
  table: RecordTable,
): RewriteResult {
  const serialized = serializeEntries([header, ...entries], true, path);
  const temp = `${path}.rewrite-${process.pid}-${randomBytes(4).toString("hex")}`;
  let backupPath: string | undefined;
  let step = "writing the new content";
  try {
    const fd = fs.openSync(temp, "wx");
    try {
      if (serialized.header) writeTextFully(fs, fd, serialized.header.text, serialized.header.bytes);
      for (const { text, bytes } of serialized.lines) writeTextFully(fs, fd, text, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (originalExists) {
      step = "keeping a backup of the original";
      backupPath = `${path}.bak-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      try {
        fs.linkSync(path, backupPath);
      } catch (error) {
        if (errnoCode(error) === "EEXIST") throw error;
        fs.copyFileSync(path, backupPath);
      }
    }
    step = "replacing the session file";
    fs.renameSync(temp, path);
    syncDirectory(fs, dirname(path));
  } catch (error) {
    for (const leftover of [temp, step === "replacing the session file" ? backupPath : undefined]) {
      if (leftover === undefined) continue;
      try {
        fs.unlinkSync(leftover);
      } catch {
        // not created
      }
    }
    throw new SessionStorageError(
      "SESSION_WRITE_FAILED",
      `${path}: rewrite failed while ${step} (${String(error)}). The original file is unchanged.`,
      { path, cause: error },
    );
  }
  table.clear();
  let pos = serialized.header?.bytes ?? 0;
  let lineNo = 2;
  for (const { bytes, record } of serialized.lines) {
    table.push(record, pos, bytes - 1, lineNo++);
    pos += bytes;
  }
  return { size: pos, lines: lineNo - 1, ...(backupPath === undefined ? {} : { backupPath }) };
}
