import fs from "node:fs";
import path from "node:path";

/** What the session pickers show about one session file. */
export interface SessionSummary {
  path: string;
  id: string;
  /** The latest `session_info` name, if any. */
  name: string | undefined;
  /** The first user message's text (one line, at most 80 characters), if any. */
  firstMessage: string | undefined;
  modified: Date;
}

const HEAD_BYTES = 256 * 1024;

function readHead(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = fs.readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

function userText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .filter((block): block is { type: "text"; text: string } => block?.type === "text")
    .map((block) => block.text)
    .join(" ");
}

function summarize(file: string): SessionSummary | undefined {
  let head: string;
  let modified: Date;
  try {
    modified = fs.statSync(file).mtime;
    head = readHead(file);
  } catch {
    return undefined;
  }
  const lines = head.split("\n");
  let header: { type?: unknown; id?: unknown } | undefined;
  try {
    header = JSON.parse(lines[0] ?? "");
  } catch {
    return undefined;
  }
  if (header?.type !== "session" || typeof header.id !== "string") return undefined;
  let name: string | undefined;
  let firstMessage: string | undefined;
  for (const line of lines.slice(1)) {
    let entry: { type?: string; name?: unknown; message?: { role?: string; content?: unknown } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.type === "session_info")
      name = typeof entry.name === "string" && entry.name ? entry.name : undefined;
    if (firstMessage === undefined && entry.type === "message" && entry.message?.role === "user") {
      const text = userText(entry.message.content)?.replace(/\s+/g, " ").trim();
      if (text) firstMessage = text.length > 80 ? `${text.slice(0, 79)}…` : text;
    }
  }
  return { path: file, id: header.id, name, firstMessage, modified };
}

/**
 * Lists the session files of a sessions folder, newest first (by modification time). Files whose first
 * line is not a session header are skipped; a missing folder yields an empty list. Only the first
 * 256 KB of each file is read, so names set later in a long session may be missed.
 */
export function listSessions(sessionsDir: string): SessionSummary[] {
  let names: string[];
  try {
    names = fs.readdirSync(sessionsDir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => summarize(path.join(sessionsDir, name)))
    .filter((summary): summary is SessionSummary => summary !== undefined)
    .sort((a, b) => b.modified.getTime() - a.modified.getTime());
}
