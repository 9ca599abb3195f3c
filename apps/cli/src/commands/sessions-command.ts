import { resolveArborHome } from "@arbor/runtime/settings";
import type { CliIo } from "../cli-io";
import { formatBytes } from "../format/format-bytes";
import { formatInteger } from "../format/format-number";
import { safeJsonStringify } from "../format/safe-json-stringify";
import { findSessionFiles } from "../sessions/find-session-files";
import { type SessionFileSummary, summarizeSessionFile } from "../sessions/summarize-session-file";
import { uniqueShortIds } from "../sessions/unique-short-ids";
import type { SessionsInput } from "../usage/sessions-usage";

/** `2026-11-30 17:50` in local time. */
function formatTime(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function fit(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
}

/**
 * `arbor sessions [--all]`: the sessions of this folder (or of every folder), most recently active
 * first, with a short id that differs between them, name (else the first message), start, last
 * activity, entries, size and model; `--json` as one object. Read-only: files are read, never
 * locked or changed. Files that are not sessions are skipped.
 */
export async function runSessionsCommand(input: SessionsInput, io: CliIo): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const arborHome = resolveArborHome(io.env ?? process.env);
  const summaries = findSessionFiles(arborHome, { cwd, all: input.all })
    .map((file) => summarizeSessionFile(file))
    .filter((summary): summary is SessionFileSummary => summary !== undefined)
    .sort((a, b) => b.lastActivity.getTime() - a.lastActivity.getTime());
  const shortIds = uniqueShortIds(summaries.map((summary) => summary.id));
  if (input.json) {
    const sessions = summaries.map((summary, index) => ({
      shortId: shortIds[index],
      id: summary.id,
      path: summary.path,
      cwd: summary.cwd ?? null,
      name: summary.name ?? null,
      firstMessage: summary.firstMessage ?? null,
      started: summary.started.toISOString(),
      lastActivity: summary.lastActivity.toISOString(),
      entries: summary.entries,
      bytes: summary.bytes,
      model: summary.model ?? null,
    }));
    io.stdout.write(`${safeJsonStringify({ sessions })}\n`);
    return 0;
  }
  if (summaries.length === 0) {
    io.stdout.write(
      input.all
        ? `No sessions under ${arborHome}/sessions.\n`
        : `No sessions for ${cwd} (arbor sessions --all lists every folder's).\n`,
    );
    return 0;
  }
  const width = Math.max(60, (io.stdout as { columns?: number }).columns || 120);
  const rows = summaries.map((summary, index) => [
    shortIds[index] ?? "",
    formatTime(summary.started),
    formatTime(summary.lastActivity),
    formatInteger(summary.entries),
    formatBytes(summary.bytes),
    summary.model ?? "-",
    summary.name ?? (summary.firstMessage ? `“${summary.firstMessage}”` : "(no messages)"),
    ...(input.all ? [summary.cwd ?? "?"] : []),
  ]);
  const header = [
    "ID",
    "STARTED",
    "LAST ACTIVE",
    "ENTRIES",
    "SIZE",
    "MODEL",
    "NAME",
    ...(input.all ? ["FOLDER"] : []),
  ];
  const table = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...table.map((cells) => (cells[column] ?? "").length)));
  const nameColumn = 6;
  const fixed = widths.reduce((sum, value, column) => (column === nameColumn ? sum : sum + value + 2), 0);
  widths[nameColumn] = Math.min(widths[nameColumn] ?? 0, Math.max(16, width - fixed));
  const right = new Set([3, 4]);
  for (const cells of table) {
    const line = cells
      .map((cell, column) => {
        const size = widths[column] ?? 0;
        const text = column === nameColumn ? fit(cell, size) : cell;
        return right.has(column) ? text.padStart(size) : text.padEnd(size);
      })
      .join("  ");
    io.stdout.write(`${line.trimEnd()}\n`);
  }
  return 0;
}
