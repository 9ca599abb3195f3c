import { dirname } from "node:path";
import type { DurabilityMode } from "../jsonl-storage-options";
import { SessionStorageError } from "../session-storage-error";
import { type StorageFs, syncDirectory } from "./storage-fs";

/**
 * Decides when appended bytes are fsynced, per {@link DurabilityMode}. `batched` syncs on the append
 * that finds the last sync older than the interval, else from an unref'd timer (so it never keeps the
 * process alive); a failure of that background sync is raised by the next append, `sync` or `close`.
 */
export class SyncPolicy {
  /** fsync calls made on the session file. */
  fsyncs = 0;
  private lastSync = Date.now();
  private pending = false;
  private dirPending = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private backgroundError: unknown;

  constructor(
    private readonly fs: StorageFs,
    private readonly path: string,
    private readonly mode: DurabilityMode,
    private readonly intervalMs: number,
  ) {}

  /** The session file was just created: its directory entry must be synced too (not in `never`). */
  created(): void {
    this.dirPending = this.mode !== "never";
  }

  /** Called after each successful append call. Throws (the caller rolls the append back). */
  afterWrite(fd: number): void {
    this.raiseBackgroundError();
    if (this.mode === "never") return;
    this.pending = true;
    if (this.mode === "always" || Date.now() - this.lastSync >= this.intervalMs) {
      this.syncNow(fd);
      return;
    }
    if (this.timer === undefined) {
      const wait = Math.max(0, this.intervalMs - (Date.now() - this.lastSync));
      this.timer = setTimeout(() => {
        this.timer = undefined;
        try {
          if (this.pending) this.syncNow(fd);
        } catch (error) {
          this.backgroundError = error;
        }
      }, wait);
      this.timer.unref?.();
    }
  }

  /** fsyncs now (file, and directory after creation). Throws `SESSION_WRITE_FAILED`. */
  syncNow(fd: number): void {
    this.raiseBackgroundError();
    try {
      this.fs.fsyncSync(fd);
      this.fsyncs++;
      if (this.dirPending) {
        syncDirectory(this.fs, dirname(this.path));
        this.dirPending = false;
      }
    } catch (error) {
      throw new SessionStorageError(
        "SESSION_WRITE_FAILED",
        `${this.path}: fsync failed (${String(error)}).`,
        {
          path: this.path,
          cause: error,
        },
      );
    }
    this.pending = false;
    this.lastSync = Date.now();
    this.cancel();
  }

  /** On close: syncs what is pending (`batched`), cancels the timer. Throws `SESSION_WRITE_FAILED`. */
  finish(fd: number): void {
    this.cancel();
    if (this.pending || this.backgroundError !== undefined) this.syncNow(fd);
  }

  /** Stops the timer without syncing. */
  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private raiseBackgroundError(): void {
    const error = this.backgroundError;
    if (error === undefined) return;
    this.backgroundError = undefined;
    throw SessionStorageError.isInstance(error)
      ? error
      : new SessionStorageError(
          "SESSION_WRITE_FAILED",
          `${this.path}: background fsync failed (${String(error)}).`,
          {
            path: this.path,
            cause: error,
          },
        );
  }
}
