import { dirname } from "node:path";
import { nodeCrypto } from "../../internal/node-crypto";
import { SessionStorageError } from "../session-storage-error";
import type { RecordTable } from "./record-table";
import { serializeEntries } from "./serialize-entries";
import { errnoCode, type StorageFs, syncDirectory } from "./storage-fs";
import { writeJsonLine } from "./write-json-line";

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
  const temp = `${path}.rewrite-${process.pid}-${nodeCrypto().randomBytes(4).toString("hex")}`;
  let backupPath: string | undefined;
  let step = "writing the new content";
  let headerBytes = 0;
  const lineBytes: number[] = [];
  try {
    const fd = fs.openSync(temp, "wx");
    try {
      if (serialized.header) headerBytes = writeJsonLine(fs, fd, serialized.header.json);
      for (const { json } of serialized.lines) lineBytes.push(writeJsonLine(fs, fd, json));
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
  let pos = headerBytes;
  let lineNo = 2;
  for (const [i, { record }] of serialized.lines.entries()) {
    const bytes = lineBytes[i] as number;
    table.push(record, pos, bytes - 1, lineNo++);
    pos += bytes;
  }
  return { size: pos, lines: lineNo - 1, ...(backupPath === undefined ? {} : { backupPath }) };
}
