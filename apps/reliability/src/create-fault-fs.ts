import * as nodeFs from "node:fs";

/** The file-system calls a fault can be put on. */
export type FaultOp = "write" | "fsync" | "truncate" | "read";

/** One planned failure. */
export interface Fault {
  op: FaultOp;
  /** The errno code thrown, e.g. `ENOSPC` or `EIO`. */
  code: string;
  /** For `write`: bytes actually written before the failure (a disk filling up mid-line). Default 0. */
  partialBytes?: number;
  /** How many consecutive calls fail. Default 1; `Infinity` until {@link FaultFs.clear}. */
  times?: number;
}

/** A `node:fs` replacement for the JSONL backend's internal `fs` option, with injectable failures. */
export interface FaultFs {
  /** Pass as `createJsonlStorage(path, { fs } as JsonlStorageOptions)` (the option is internal). */
  readonly fs: typeof nodeFs;
  /** Makes the next matching call(s) on the target file fail. Faults queue per operation. */
  inject(fault: Fault): void;
  /** Drops every pending fault: the disk is healthy again. */
  clear(): void;
  /** Faults that fired so far. */
  readonly fired: number;
}

const MESSAGES: Record<string, string> = {
  ENOSPC: "no space left on device",
  EIO: "i/o error",
  EDQUOT: "disk quota exceeded",
};

function systemError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `${code}: ${MESSAGES[code] ?? "failure"}, ${syscall} '${path}'`,
  );
  error.code = code;
  error.syscall = syscall;
  error.path = path;
  error.errno = code === "ENOSPC" ? -28 : code === "EIO" ? -5 : -1;
  return error;
}

/**
 * Wraps the real `node:fs` so that calls on the file descriptors of `target` (the session file, not
 * its lock or quarantine files) fail on demand with a system error shaped like Node's (`code`,
 * `errno`, `syscall`, `path`). Everything else goes to the real file system, so the bytes on disk
 * are real: a partial write really leaves a partial line behind.
 */
export function createFaultFs(target: string): FaultFs {
  const fds = new Set<number>();
  const queue = new Map<FaultOp, Fault[]>();
  let fired = 0;
  const take = (op: FaultOp, fd: number): Fault | undefined => {
    if (!fds.has(fd)) return undefined;
    const pending = queue.get(op);
    const fault = pending?.[0];
    if (!fault) return undefined;
    fault.times = (fault.times ?? 1) - 1;
    if (fault.times <= 0) pending.shift();
    fired++;
    return fault;
  };
  const fs = {
    ...nodeFs,
    openSync(path: nodeFs.PathLike, ...rest: unknown[]): number {
      const fd = (nodeFs.openSync as (...args: unknown[]) => number)(path, ...rest);
      if (String(path) === target) fds.add(fd);
      return fd;
    },
    closeSync(fd: number): void {
      fds.delete(fd);
      nodeFs.closeSync(fd);
    },
    writeSync(fd: number, buffer: NodeJS.ArrayBufferView | string, ...rest: unknown[]): number {
      const fault = take("write", fd);
      if (fault) {
        const partial = fault.partialBytes ?? 0;
        if (partial > 0) {
          // A string (the session store writes each line as one) is written as its UTF-8 bytes.
          const bytes = typeof buffer === "string" ? Buffer.from(buffer, "utf8") : buffer;
          const offset = typeof buffer !== "string" && typeof rest[0] === "number" ? rest[0] : 0;
          const length =
            typeof buffer !== "string" && typeof rest[1] === "number" ? rest[1] : bytes.byteLength - offset;
          const written = nodeFs.writeSync(fd, bytes, offset, Math.min(partial, length - 1));
          // The OS accepted part of the line; the next write (of the rest) hits the full disk.
          queue.set("write", [{ op: "write", code: fault.code }, ...(queue.get("write") ?? [])]);
          return written;
        }
        throw systemError(fault.code, "write", target);
      }
      return (nodeFs.writeSync as (...args: unknown[]) => number)(fd, buffer, ...rest);
    },
    fsyncSync(fd: number): void {
      const fault = take("fsync", fd);
      if (fault) throw systemError(fault.code, "fsync", target);
      nodeFs.fsyncSync(fd);
    },
    ftruncateSync(fd: number, len?: number): void {
      const fault = take("truncate", fd);
      if (fault) throw systemError(fault.code, "ftruncate", target);
      nodeFs.ftruncateSync(fd, len);
    },
    readSync(fd: number, ...rest: unknown[]): number {
      const fault = take("read", fd);
      if (fault) throw systemError(fault.code, "read", target);
      return (nodeFs.readSync as (...args: unknown[]) => number)(fd, ...rest);
    },
  } as typeof nodeFs;
  return {
    fs,
    inject(fault) {
      const pending = queue.get(fault.op) ?? [];
      pending.push({ ...fault });
      queue.set(fault.op, pending);
    },
    clear() {
      queue.clear();
    },
    get fired() {
      return fired;
    },
  };
}
