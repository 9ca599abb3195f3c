import * as nodeFs from "node:fs";

/**
 * The synchronous `node:fs` functions the JSONL backend uses. Replaceable (internal option `fs`) so
 * tests can inject I/O failures into a real file system.
 */
export type StorageFs = Pick<
  typeof nodeFs,
  | "openSync"
  | "closeSync"
  | "readSync"
  | "writeSync"
  | "fsyncSync"
  | "fstatSync"
  | "statSync"
  | "ftruncateSync"
  | "renameSync"
  | "unlinkSync"
  | "linkSync"
  | "copyFileSync"
  | "mkdirSync"
  | "readFileSync"
  | "existsSync"
>;

/** The real file system. */
export const nodeStorageFs: StorageFs = nodeFs;

/** Reads exactly `length` bytes at `position` unless the file ends first; returns the count read. */
export function readFully(
  fs: StorageFs,
  fd: number,
  buf: Buffer,
  offset: number,
  length: number,
  position: number,
): number {
  let total = 0;
  while (total < length) {
    const n = fs.readSync(fd, buf, offset + total, length - total, position + total);
    if (n === 0) break;
    total += n;
  }
  return total;
}

/** fsyncs a directory so a created, renamed or removed name in it is durable. Best effort. */
export function syncDirectory(fs: StorageFs, dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Some platforms and file systems do not allow opening or syncing a directory.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The `code` of a Node system error, if any. */
export function errnoCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String((error as { code: unknown }).code)
    : undefined;
}
