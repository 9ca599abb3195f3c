import { dirname, resolve } from "node:path";
import type {
  DurabilityMode,
  JsonlSessionStorage,
  JsonlStorageOptions,
  JsonlStorageStats,
} from "../jsonl-storage-options";
import type { StorageLoadIssue, StorageLoadResult } from "../session-storage";
import { SessionStorageError } from "../session-storage-error";
import { FILE_CHECK_INTERVAL_MS, FileChangeGuard } from "./file-change-guard";
import { LineScanner } from "./line-scanner";
import { openSessionFile } from "./open-session-file";
import { EntryReadWindow, readEntryLine, readLineBytes } from "./read-entry-line";
import { RECORD_COLUMNS_MIN_BYTES, RecordTable } from "./record-table";
import { rewriteSessionFile } from "./rewrite-session-file";
import { serializeEntries, serializeEntry } from "./serialize-entries";
import { acquireSessionLock, type SessionLock } from "./session-lock";
import { removeSidecarIndex, sidecarIndexPath, writeSidecarIndex, writeSidecarMarker } from "./sidecar-index";
import { nodeStorageFs, type StorageFs } from "./storage-fs";
import { SyncPolicy } from "./sync-policy";
import { writeLine, writeLines } from "./write-lines";

/** The JSONL file backend. See `createJsonlStorage` for the contract. */
export class JsonlStorage implements JsonlSessionStorage {
  readonly kind = "jsonl" as const;
  readonly path: string;
  readonly durability: DurabilityMode;
  readonly readOnly: boolean;
  private readonly fs: StorageFs;
  /** Where the sidecar index is read from and written to; `undefined`: no index. */
  private readonly indexPath: string | undefined;
  /** Whether this storage may write the index (never beside the session when read-only). */
  private readonly writesIndex: boolean;
  private readonly indexMinBytes: number;
  private readonly columnsMinBytes: number;
  /** A read-only open that found no index writes a marker on close, the index on the next open. */
  private readonly deferIndexWrite: boolean;
  private readonly table = new RecordTable();
  private readonly sync_: SyncPolicy;
  private scanner: LineScanner;
  private state: "new" | "loaded" | "closed" = "new";
  private lock: SessionLock | undefined;
  private readFd: number | undefined;
  private appendFd: number | undefined;
  private fileSize = 0;
  private fileExists = false;
  private indexedEnd = -1;
  private brokenReason: string | undefined;
  /** Refuses writes once another program deleted, replaced, truncated or grew the file. */
  private readonly guard: FileChangeGuard;
  /** Bytes kept between entry reads (cleared whenever the file is written). */
  private readonly window = new EntryReadWindow();
  private readonly counters = {
    indexUsed: false,
    indexRejectedReason: undefined as string | undefined,
    indexedBytes: 0,
    indexWrites: 0,
    tailRepaired: false,
    entriesRead: 0,
    linesWritten: 0,
  };

  constructor(path: string, options: JsonlStorageOptions = {}) {
    this.path = resolve(path);
    this.fs = options.fs ?? nodeStorageFs;
    this.durability = options.durability ?? "batched";
    this.readOnly = options.readOnly ?? false;
    this.indexPath = sidecarIndexPath(this.path, options.sidecarIndex);
    this.writesIndex =
      this.indexPath !== undefined && (!this.readOnly || typeof options.sidecarIndex === "object");
    this.indexMinBytes = options.sidecarMinBytes ?? 1024 * 1024;
    this.columnsMinBytes = options.recordColumnsMinBytes ?? RECORD_COLUMNS_MIN_BYTES;
    this.deferIndexWrite =
      this.readOnly &&
      typeof options.sidecarIndex === "object" &&
      options.sidecarIndex.writeOnSecondOpen === true;
    const batchMs = intervalOption(this.path, "batchIntervalMs", options.batchIntervalMs, 1000);
    this.sync_ = new SyncPolicy(this.fs, this.path, this.durability, batchMs);
    this.scanner = new LineScanner(this.path, this.table);
    const identityDefault = this.durability === "always" ? 0 : FILE_CHECK_INTERVAL_MS;
    this.guard = new FileChangeGuard(
      this.fs,
      this.path,
      intervalOption(this.path, "fileCheckIntervalMs", options.fileCheckIntervalMs, identityDefault),
    );
  }

  load(): StorageLoadResult {
    if (this.state === "closed") throw this.closedError();
    if (this.state === "loaded") {
      throw new SessionStorageError("SESSION_ALREADY_LOADED", `${this.path} is already loaded.`, {
        path: this.path,
      });
    }
    try {
      if (!this.readOnly) {
        this.fs.mkdirSync(dirname(this.path), { recursive: true });
        this.lock = acquireSessionLock(this.fs, this.path);
      }
      const issues = this.openAndScan();
      this.table.settleParents();
      this.state = "loaded";
      return this.table.loadResult(this.scanner.header, issues);
    } catch (error) {
      this.releaseResources();
      this.state = "closed";
      if (SessionStorageError.isInstance(error)) throw error;
      throw new SessionStorageError("SESSION_READ_FAILED", `Cannot read ${this.path}: ${String(error)}`, {
        path: this.path,
        cause: error,
      });
    }
  }

  readEntry(index: number): Record<string, unknown> {
    this.assertLoaded();
    if (index < 0 || index >= this.table.size || this.readFd === undefined) {
      throw new SessionStorageError(
        "SESSION_ENTRY_OUT_OF_RANGE",
        `${this.path}: no entry at index ${index} (the session has ${this.table.size}).`,
        { path: this.path },
      );
    }
    const entry =
      this.scanner.takeParsed(index) ??
      readEntryLine(this.fs, this.readFd, this.path, this.table, index, this.window);
    this.counters.entriesRead++;
    return entry;
  }

  readEntryLine(index: number): Uint8Array | undefined {
    this.assertLoaded();
    if (index < 0 || index >= this.table.size || this.readFd === undefined) return undefined;
    return readLineBytes(this.fs, this.readFd, this.path, this.table, index, this.window);
  }

  lineOf(index: number): number | undefined {
    return index >= 0 && index < this.table.size ? this.table.lineOf(index) : undefined;
  }

  indexOfId(id: string): number | undefined {
    this.assertLoaded();
    const index = this.table.indexOfId(id);
    return index < 0 ? undefined : index;
  }

  append(entries: readonly Record<string, unknown>[]): void {
    this.assertWritable();
    if (entries.length === 0) return;
    this.window.clear();
    if (entries.length === 1 && this.scanner.header !== undefined) {
      this.appendOne(entries[0] as Record<string, unknown>);
      return;
    }
    const { header, lines } = serializeEntries(entries, this.scanner.header === undefined, this.path);
    const fd = this.ensureAppendFd();
    this.guard.check(fd, this.fileSize, this.readFd);
    const result = writeLines({
      fs: this.fs,
      path: this.path,
      fd,
      size: this.fileSize,
      firstLine: this.scanner.lineNo + 1,
      header,
      lines,
      table: this.table,
      sync: this.sync_,
    });
    if (result.brokenReason !== undefined) this.brokenReason = result.brokenReason;
    if (result.error) throw result.error;
    if (header) this.scanner.header = header.value;
    this.fileSize = result.size;
    this.guard.appended(result.size);
    this.scanner.lineNo += result.linesWritten;
    this.counters.linesWritten += result.linesWritten;
  }

  /** {@link append} of one entry after the header: what a live session does on every append. */
  private appendOne(entry: Record<string, unknown>): void {
    const line = serializeEntry(entry, this.path, 0);
    const fd = this.ensureAppendFd();
    this.guard.check(fd, this.fileSize, this.readFd);
    const lineNo = this.scanner.lineNo + 1;
    const result = writeLine(this.fs, this.path, fd, this.fileSize, lineNo, line, this.table, this.sync_);
    if (typeof result !== "number") {
      if (result.brokenReason !== undefined) this.brokenReason = result.brokenReason;
      throw result.error;
    }
    this.fileSize = result;
    this.guard.appended(result);
    this.scanner.lineNo = lineNo;
    this.counters.linesWritten++;
  }

  rewrite(
    header: Record<string, unknown>,
    entries: readonly Record<string, unknown>[],
  ): { backupPath?: string } {
    this.assertWritable();
    this.window.clear();
    const result = rewriteSessionFile(this.fs, this.path, header, entries, this.fileExists, this.table);
    if (this.indexPath !== undefined) removeSidecarIndex(this.fs, this.indexPath);
    this.sync_.cancel();
    this.closeFds(); // they point at the original, now the backup
    this.readFd = this.fs.openSync(this.path, "r+");
    this.guard.adopt(this.readFd);
    this.fileExists = true;
    this.fileSize = result.size;
    this.scanner = new LineScanner(this.path, this.table, { header, lineNo: result.lines });
    this.indexedEnd = -1;
    return result.backupPath === undefined ? {} : { backupPath: result.backupPath };
  }

  sync(): void {
    this.assertLoaded();
    if (this.appendFd !== undefined) this.sync_.syncNow(this.appendFd);
  }

  writeIndex(): boolean {
    this.assertLoaded();
    const blocked = this.brokenReason !== undefined || this.guard.changed !== undefined;
    if (this.indexPath === undefined || !this.writesIndex || this.readFd === undefined || blocked)
      return false;
    // A read-only storage may hold a record for an unterminated last line the index cannot cover.
    if (this.readOnly && this.completeEnd.bytes !== this.fileSize) return false;
    const file = this.fs.fstatSync(this.readFd);
    const covered = this.coveredEnd();
    // The columns first: taking them resolves the parents the records then tell.
    const columns = this.table.columns();
    const ok = writeSidecarIndex(
      this.fs,
      this.indexPath,
      this.readFd,
      {
        header: this.scanner.header,
        records: this.table,
        columns,
        issues: this.scanner.issues,
        coveredBytes: covered.bytes,
        coveredLines: covered.lines,
      },
      { size: file.size, mtimeMs: file.mtimeMs, ino: file.ino },
    );
    if (ok) {
      this.counters.indexWrites++;
      this.indexedEnd = covered.bytes;
    }
    return ok;
  }

  stats(): JsonlStorageStats {
    return { ...this.scanner.counters, ...this.counters, fsyncs: this.sync_.fsyncs };
  }

  close(): void {
    if (this.state === "closed") return;
    const wasLoaded = this.state === "loaded";
    this.state = "closed";
    // A change is looked for first, while the descriptors can still save the file's bytes (after a
    // failed write the size differs by the storage's own torn line: nothing to look for then).
    let failure: unknown =
      this.brokenReason === undefined
        ? this.guard.checkBeforeClose(this.appendFd, this.fileSize, this.readFd)
        : undefined;
    try {
      if (this.appendFd !== undefined) this.sync_.finish(this.appendFd);
    } catch (error) {
      failure ??= error;
    }
    if (
      wasLoaded &&
      this.writesIndex &&
      this.fileSize >= this.indexMinBytes &&
      this.coveredEnd().bytes !== this.indexedEnd
    ) {
      if (this.deferIndexWrite && this.counters.indexRejectedReason === "missing") {
        writeSidecarMarker(this.fs, this.indexPath as string);
      } else {
        this.state = "loaded";
        this.writeIndex();
        this.state = "closed";
      }
    }
    this.releaseResources();
    if (failure) throw failure;
  }

  private openAndScan(): StorageLoadIssue[] {
    const opened = openSessionFile(this.fs, this.path, this.table, {
      readOnly: this.readOnly,
      indexPath: this.indexPath,
      columnsMinBytes: this.columnsMinBytes,
    });
    this.readFd = opened.fd;
    if (opened.bytes) this.window.adopt(opened.bytes.buf, opened.bytes.from, opened.bytes.length);
    this.guard.adopt(opened.fd);
    this.fileExists = opened.fd !== undefined;
    this.scanner = opened.scanner;
    this.fileSize = opened.size;
    this.completeEnd = opened.complete;
    this.indexedEnd = opened.indexedEnd;
    this.counters.indexUsed = opened.indexedEnd >= 0;
    this.counters.indexedBytes = Math.max(0, opened.indexedEnd);
    this.counters.indexRejectedReason = opened.indexRejectedReason;
    this.counters.tailRepaired = opened.tailRepaired;
    return opened.issues;
  }

  private completeEnd = { bytes: 0, lines: 0 };

  /** The prefix made of complete lines that the index may cover. */
  private coveredEnd(): { bytes: number; lines: number } {
    return this.readOnly ? this.completeEnd : { bytes: this.fileSize, lines: this.scanner.lineNo };
  }

  private ensureAppendFd(): number {
    if (this.appendFd !== undefined) return this.appendFd;
    const created = !this.fileExists;
    this.appendFd = this.guard.openForAppend(this.fileExists, this.fileSize, this.readFd);
    if (created) {
      this.fileExists = true;
      this.readFd = this.fs.openSync(this.path, "r+");
      this.sync_.created();
    }
    return this.appendFd;
  }

  private assertLoaded(): void {
    if (this.state === "closed") throw this.closedError();
    if (this.state === "new") {
      throw new SessionStorageError("SESSION_NOT_LOADED", `${this.path}: call load() first.`, {
        path: this.path,
      });
    }
  }

  private assertWritable(): void {
    this.assertLoaded();
    this.guard.assertUnchanged();
    if (this.readOnly) {
      throw new SessionStorageError("SESSION_WRITE_FAILED", `${this.path} was opened read-only.`, {
        path: this.path,
      });
    }
    if (this.brokenReason !== undefined) {
      throw new SessionStorageError(
        "SESSION_WRITE_FAILED",
        `${this.path}: writing is disabled after an earlier failure (${this.brokenReason}). Reopen the session: its torn last line will be quarantined.`,
        { path: this.path },
      );
    }
  }

  private closedError(): SessionStorageError {
    return new SessionStorageError("SESSION_CLOSED", `${this.path}: the storage is closed.`, {
      path: this.path,
    });
  }

  private closeFds(): void {
    for (const fd of [this.appendFd, this.readFd]) {
      if (fd === undefined) continue;
      try {
        this.fs.closeSync(fd);
      } catch {
        // closing is best effort
      }
    }
    this.appendFd = undefined;
    this.readFd = undefined;
  }

  private releaseResources(): void {
    this.window.clear(true);
    this.scanner.dropParsed();
    this.sync_.cancel();
    this.closeFds();
    this.lock?.release();
    this.lock = undefined;
  }
}

/** A millisecond interval option: `fallback` when absent; a finite number ≥ 0 when given. */
function intervalOption(path: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new SessionStorageError(
      "SESSION_OPTIONS_INVALID",
      `${path}: the storage option ${name} must be a number of milliseconds, 0 or more; got ${String(value)}.`,
      { path },
    );
  }
  return value;
}
