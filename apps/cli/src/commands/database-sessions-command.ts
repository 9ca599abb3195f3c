import { listPostgresSessions, parsePostgresLocation } from "@arbor/session-store/postgres";
import type { CliIo } from "../cli-io";
import { formatInteger } from "../format/format-number";
import { safeJsonStringify } from "../format/safe-json-stringify";
import { sanitizeTerminalText } from "../format/sanitize-terminal-text";
import { publicDatabaseLocation } from "../sessions/public-database-location";

/** `2026-11-30 17:50` in local time. */
function formatTime(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * `arbor sessions --store postgresql://…`: the sessions of a database, most recently written first:
 * location (the URL as given with `#<id>`), start, last activity, entries, name and folder;
 * `--json` as one object. Read-only (one query).
 */
export async function runDatabaseSessionsCommand(store: string, json: boolean, io: CliIo): Promise<number> {
  const { target } = parsePostgresLocation(store);
  const base = publicDatabaseLocation(store);
  const sessions = await listPostgresSessions(target);
  if (json) {
    const rows = sessions.map((session) => ({
      id: session.id,
      location: `${base}#${session.id}`,
      cwd: session.cwd ?? null,
      name: session.name ?? null,
      started: session.createdAt.toISOString(),
      lastActivity: session.updatedAt.toISOString(),
      entries: session.entryCount,
    }));
    io.stdout.write(`${safeJsonStringify({ sessions: rows })}\n`);
    return 0;
  }
  if (sessions.length === 0) {
    io.stdout.write(`No sessions in ${base} (arbor import FILE.jsonl --to ${base} copies one in).\n`);
    return 0;
  }
  const header = ["LOCATION", "STARTED", "LAST ACTIVE", "ENTRIES", "NAME", "FOLDER"];
  const rows = sessions.map((session) => [
    `${base}#${session.id}`,
    formatTime(session.createdAt),
    formatTime(session.updatedAt),
    formatInteger(session.entryCount),
    sanitizeTerminalText(session.name ?? "-"),
    sanitizeTerminalText(session.cwd ?? "?"),
  ]);
  const table = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...table.map((cells) => (cells[column] ?? "").length)));
  for (const cells of table) {
    const line = cells
      .map((cell, column) =>
        column === 3 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join("  ");
    io.stdout.write(`${line.trimEnd()}\n`);
  }
  return 0;
}
