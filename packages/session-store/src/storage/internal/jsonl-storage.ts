import { dirname, resolve } from "node:path";
import type {
  DurabilityMode,
  JsonlSessionStorage,
  JsonlStorageOptions,
  JsonlStorageStats,
} from "../jsonl-storage-options";
import type { StorageLoadIssue, StorageLoadResult } from "../session-storage";
import { SessionStorageError } from "../session-storage-error";
import { LineScanner, parseLine } from "./line-scanner";
import { RecordTable } from "./record-table";
import { rewriteSessionFile } from "./rewrite-session-file";
import { scanSessionFile } from "./scan-session-file";
import { serializeEntries } from "./serialize-entries";
import { acquireSessionLock, type SessionLock } from "./session-lock";
import { settleTornTail } from "./settle-torn-tail";
import { readSidecarIndex, writeSidecarIndex } from "./sidecar-index";
import { errnoCode, nodeStorageFs, readFully, type StorageFs } from "./storage-fs";
import { SyncPolicy } from "./sync-policy";
import { writeLines } from "./write-lines";

/** The JSONL file backend. See `createJsonlStorage` for the contract. */
export class JsonlStorage implements JsonlSessionStorage {
  readonly kind = "jsonl" as const;
  readonly path: string;
  readonly durability: DurabilityMode;
  readonly readOnly: boolean;
  private readonly fs: StorageFs;
  private readonly useIndex: boolean;
  private readonly indexMinBytes: number;
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
  private scratch = Buffer.allocUnsafe(64 * 1024);
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
    this.useIndex = options.sidecarIndex ?? true;
    this.indexMinBytes = options.sidecarMinBytes ?? 1024 * 1024;
    this.sync_ = new SyncPolicy(this.fs, this.path, this.durability, options.batchIntervalMs ?? 1000);
    this.scanner = new LineScanner(this.path, this.table);
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
      return {
        header: this.scanner.header,
        records: this.table.records.slice(),
        issues,
        parentIndex: this.table.parentIndex(),
      };
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
    const record = this.table.records[index];
    if (record === undefined || this.readFd === undefined) {
      throw new SessionStorageError(
        "SESSION_ENTRY_OUT_OF_RANGE",
        `${this.path}: no entry at index ${index} (the session has ${this.table.size}).`,
        { path: this.path },
      );
    }
    const start = this.table.startOf(index);
    const length = this.table.lengthOf(index);
    const line = this.table.lineOf(index);
    if (length > this.scratch.length)
      this.scratch = Buffer.allocUnsafe(Math.max(length, this.scratch.length * 2));
    let n: number;
    try {
      n = readFully(this.fs, this.readFd, this.scratch, 0, length, start);
    } catch (error) {
      throw new SessionStorageError(
        "SESSION_READ_FAILED",
        `${this.path}:${line}: cannot read the line (${String(error)}).`,
        {
          path: this.path,
          line,
          cause: error,
        },
      );
    }
    const parsed =
      n === length ? parseLine(this.scratch, 0, n) : { ok: false as const, error: "the file is shorter" };
    if (!parsed.ok) {
      throw new SessionStorageError(
        n === length ? "SESSION_LINE_CORRUPT" : "SESSION_FILE_CHANGED",
        `${this.path}:${line}: the line of entry ${record.id ?? `#${index}`} does not parse (${parsed.error}). It stays in the file unchanged.`,
        { path: this.path, line, ...(record.id === undefined ? {} : { entryId: record.id }) },
      );
    }
    const entry = parsed.value as Record<string, unknown>;
    if (
      typeof entry !== "object" ||
      entry === null ||
      entry.type !== record.type ||
      (entry.id ?? undefined) !== record.id
    ) {
      throw new SessionStorageError(
        "SESSION_FILE_CHANGED",
        `${this.path}:${line}: expected entry ${record.id ?? `#${index}`} (${record.type}) but the line holds something else: the file was changed by another program. Reopen the session.`,
        { path: this.path, line, ...(record.id === undefined ? {} : { entryId: record.id }) },
      );
    }
    this.counters.entriesRead++;
    return entry;
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
    const { header, lines } = serializeEntries(entries, this.scanner.header === undefined, this.path);
    const result = writeLines({
      fs: this.fs,
      path: this.path,
      fd: this.ensureAppendFd(),
      size: this.fileSize,
      firstLine: this.scanner.lineNo + 1,
      header: header?.line,
      lines,
      table: this.table,
      sync: this.sync_,
    });
    if (result.brokenReason !== undefined) this.brokenReason = result.brokenReason;
    if (result.error) throw result.error;
    if (header) this.scanner.header = header.value;
    this.fileSize = result.size;
    this.scanner.lineNo += result.linesWritten;
    this.counters.linesWritten += result.linesWritten;
  }

  rewrite(
    header: Record<string, unknown>,
    entries: readonly Record<string, unknown>[],
  ): { backupPath?: string } {
    this.assertWritable();
    const result = rewriteSessionFile(this.fs, this.path, header, entries, this.fileExists, this.table);
    this.sync_.cancel();
    this.closeFds(); // they point at the original, now the backup
    this.readFd = this.fs.openSync(this.path, "r+");
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
    if (!this.useIndex || this.readFd === undefined || this.brokenReason !== undefined) return false;
    const file = this.fs.fstatSync(this.readFd);
    const covered = this.coveredEnd();
    const ok = writeSidecarIndex(
      this.fs,
      this.path,
      this.readFd,
      {
        header: this.scanner.header,
        records: this.table.records,
        columns: this.table.columns(),
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
    let failure: unknown;
    try {
      if (this.appendFd !== undefined) this.sync_.finish(this.appendFd);
    } catch (error) {
      failure = error;
    }
    if (
      wasLoaded &&
      this.useIndex &&
      this.fileSize >= this.indexMinBytes &&
      this.coveredEnd().bytes !== this.indexedEnd
    ) {
      this.state = "loaded";
      this.writeIndex();
      this.state = "closed";
    }
    this.releaseResources();
    if (failure) throw failure;
  }

  private openAndScan(): StorageLoadIssue[] {
    try {
      this.readFd = this.fs.openSync(this.path, this.readOnly ? "r" : "r+");
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") throw error;
      if (this.readOnly) {
        throw new SessionStorageError("SESSION_NOT_FOUND", `Session file not found: ${this.path}`, {
          path: this.path,
        });
      }
      return [];
    }
    this.fileExists = true;
    const file = this.fs.fstatSync(this.readFd);
    let from = 0;
    if (this.useIndex) {
      const index = readSidecarIndex(this.fs, this.path, this.readFd, { size: file.size, ino: file.ino });
      if (index.ok) {
        const d = index.data;
        this.table.adopt(d.records, d.columns);
        this.scanner = new LineScanner(this.path, this.table, { header: d.header, lineNo: d.coveredLines });
        this.scanner.issues.push(...d.issues);
        from = d.coveredBytes;
        this.indexedEnd = d.coveredBytes;
        this.counters.indexUsed = true;
        this.counters.indexedBytes = d.coveredBytes;
      } else {
        this.counters.indexRejectedReason = index.reason;
      }
    }
    // Typical entries take 0.5-3 KB: reserve for the dense end so big files do not regrow as they scan.
    this.table.reserve(this.table.size + Math.ceil((file.size - from) / 768));
    const scan = scanSessionFile(this.fs, this.readFd, this.scanner, from, file.size);
    this.scanner.requireHeader(scan.end > 0);
    this.fileSize = file.size;
    this.completeEnd = { bytes: scan.end, lines: this.scanner.lineNo };
    const issues = [...this.scanner.issues];
    if (scan.tail) {
      const outcome = settleTornTail(
        this.fs,
        this.readFd,
        this.path,
        this.scanner,
        scan.tail,
        !this.readOnly,
      );
      this.fileSize = outcome.size;
      this.counters.tailRepaired = outcome.repaired;
      if (outcome.repaired && !this.readOnly)
        this.completeEnd = { bytes: outcome.size, lines: this.scanner.lineNo };
      if (outcome.issue) issues.push(outcome.issue);
    }
    return issues;
  }

  private completeEnd = { bytes: 0, lines: 0 };

  /** The prefix made of complete lines that the index may cover. */
  private coveredEnd(): { bytes: number; lines: number } {
    return this.readOnly ? this.completeEnd : { bytes: this.fileSize, lines: this.scanner.lineNo };
  }

  private ensureAppendFd(): number {
    if (this.appendFd !== undefined) return this.appendFd;
    try {
      this.appendFd = this.fs.openSync(this.path, this.fileExists ? "a" : "ax");
      if (!this.fileExists) {
        this.fileExists = true;
        this.readFd = this.fs.openSync(this.path, "r+");
        this.sync_.created();
      }
      return this.appendFd;
    } catch (error) {
      throw new SessionStorageError(
        "SESSION_WRITE_FAILED",
        `Cannot open ${this.path} for appending: ${String(error)}. Nothing was written.`,
        { path: this.path, cause: error },
      );
    }
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
    this.sync_.cancel();
    this.closeFds();
    this.lock?.release();
    this.lock = undefined;
  }
}
