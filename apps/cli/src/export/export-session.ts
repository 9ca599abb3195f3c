import fs from "node:fs";
import path from "node:path";
import type { SessionStore } from "@arbor/session-store";
import { CliError } from "../cli-error";
import { buildExportStream, buildPathExportStream } from "./build-export-data";
import { loadViewerScript } from "./load-viewer-script";
import { EXPORT_ENTRIES_PER_CHUNK, renderExportHtmlParts } from "./render-export-html";
import { renderExportMarkdownParts } from "./render-export-markdown";
import { renderUsageChart, usageSeries } from "./render-usage-chart";
import { DEFAULT_EXPORT_CLIP_CHARS } from "./to-export-message";

/** What {@link exportSession} writes and where. */
export interface ExportSessionOptions {
  format: "html" | "md";
  /** The leaf to show (HTML: shown first; Markdown: the path exported). Default the session's leaf. */
  leafId?: string;
  /** Output file; `-` writes to `stdout`. Default `<session file name>.<html|md>` in `cwd`. */
  output?: string;
  cwd: string;
  arborVersion: string;
  /** Where `-` writes. */
  stdout: { write(chunk: string): unknown };
  /** Time of the export. Default now. */
  now?: Date;
}

/** What {@link exportSession} did. */
export interface ExportSessionResult {
  /** The file written (absolute), or undefined for `output: "-"`. */
  file: string | undefined;
  bytes: number;
  entries: number;
  pathLength: number;
}

function defaultOutput(store: SessionStore, format: "html" | "md", cwd: string): string {
  const base = store.path ? path.basename(store.path).replace(/\.jsonl$/i, "") : `session-${store.sessionId}`;
  return path.resolve(cwd, `${base}.${format}`);
}

/**
 * Writes the parts to `file` through a temporary file and a rename, so that a reader never sees half
 * a page and a failed export leaves nothing behind. Returns the byte count.
 */
function writeAtomically(file: string, parts: Iterable<string>): number {
  const temporary = `${file}.${process.pid}.tmp`;
  let bytes = 0;
  let fd: number | undefined;
  try {
    fd = fs.openSync(temporary, "w", 0o644);
    for (const part of parts) bytes += fs.writeSync(fd, part);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temporary, file);
    return bytes;
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    if (CliError.isInstance(error)) throw error;
    throw new CliError("CLI_EXPORT_FAILED", `${file}: cannot write the export (${(error as Error).message})`);
  }
}

/**
 * Exports a session as a self-contained HTML page (the tree, every leaf's context, compactions,
 * edits, branch summaries, tokens) or as Markdown (the path to the leaf as readable text), to a file
 * or to `stdout`. The page is produced chunk by chunk, so a session of any size is exported in
 * bounded extra memory. Reads the store only. Refuses to write over the session file itself.
 *
 * @throws CliError `CLI_USAGE` for a `leafId` that is not in the session or an output that is the
 *   session file; `CLI_EXPORT_FAILED` when the file cannot be written (nothing is left behind).
 */
export function exportSession(store: SessionStore, options: ExportSessionOptions): ExportSessionResult {
  if (options.leafId !== undefined && store.getEntry(options.leafId) === undefined) {
    throw new CliError(
      "CLI_USAGE",
      `--leaf ${options.leafId}: no entry with this id in ${store.path ?? "the session"}`,
    );
  }
  const file =
    options.output === "-"
      ? undefined
      : options.output === undefined
        ? defaultOutput(store, options.format, options.cwd)
        : path.resolve(options.cwd, options.output);
  if (file !== undefined && store.path !== undefined && path.resolve(store.path) === file) {
    throw new CliError(
      "CLI_USAGE",
      `-o ${options.output ?? file}: that is the session file itself; choose another output`,
    );
  }
  const buildOptions = {
    leafId: options.leafId,
    fileName: store.path ? path.basename(store.path) : "(not saved)",
    exportedAt: (options.now ?? new Date()).toISOString(),
    arborVersion: options.arborVersion,
    clipChars: DEFAULT_EXPORT_CLIP_CHARS,
  };
  let parts: Iterable<string>;
  let pathLength: number;
  let entryCount: number;
  if (options.format === "html") {
    const { head, chunks } = buildExportStream(store, buildOptions, EXPORT_ENTRIES_PER_CHUNK);
    const leafId = options.leafId ?? store.leafId;
    const pathIds = leafId === null ? [] : store.getPathIds(leafId);
    // The path's entries one at a time (a long path is never held whole).
    function* path() {
      for (const id of pathIds) {
        const entry = store.getEntry(id);
        if (entry !== undefined) yield entry;
      }
    }
    const chart = renderUsageChart(usageSeries(path()), `${head.session.file}: context and cost per request`);
    parts = renderExportHtmlParts(head, chunks(), loadViewerScript(), chart);
    pathLength = pathIds.length;
    entryCount = head.session.entryCount;
  } else {
    // The path's entries are read, made into text and written one after another: none is kept.
    const stream = buildPathExportStream(store, buildOptions);
    parts = renderExportMarkdownParts(stream.head, stream.leafId, stream.pathLength, stream.entries());
    pathLength = stream.pathLength;
    entryCount = stream.head.session.entryCount;
  }
  let bytes = 0;
  if (file === undefined) {
    for (const part of parts) {
      options.stdout.write(part);
      bytes += Buffer.byteLength(part);
    }
  } else {
    bytes = writeAtomically(file, parts);
  }
  return { file, bytes, entries: entryCount, pathLength };
}
