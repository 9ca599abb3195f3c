import fs from "node:fs";

/** What `arbor sessions` shows about one session file (read from the file itself). */
export interface SessionFileSummary {
  path: string;
  /** The header's id. */
  id: string;
  /** The header's working folder, if any. */
  cwd: string | undefined;
  /** The latest `session_info` name, if any. */
  name: string | undefined;
  /** The first user message's text (one line, at most 80 characters), if any. */
  firstMessage: string | undefined;
  /** The header's timestamp (else the file's modification time). */
  started: Date;
  /** The last entry's timestamp (else the file's modification time). */
  lastActivity: Date;
  /** Entries (lines after the header; a torn last line counts). */
  entries: number;
  /** File size in bytes. */
  bytes: number;
  /** `provider/id` of the latest model change or assistant message, if any. */
  model: string | undefined;
}

const CHUNK = 1024 * 1024;

/** Lines are cut from chunks decoded as latin1 (one character per byte); JSON is parsed as UTF-8. */
function parse(line: string | undefined): Record<string, unknown> | undefined {
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(
      Buffer.from(line, "latin1")
        .toString("utf8")
        .replace(/^\uFEFF/, ""),
    );
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

function dateOf(value: unknown, fallback: Date): Date {
  const date = typeof value === "string" || typeof value === "number" ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : fallback;
}

function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .map((block) => (block?.type === "text" && typeof block.text === "string" ? block.text : ""))
    .join(" ");
}

function modelOf(line: string | undefined): string | undefined {
  const entry = parse(line);
  if (
    entry?.type === "model_change" &&
    typeof entry.provider === "string" &&
    typeof entry.modelId === "string"
  ) {
    return `${entry.provider}/${entry.modelId}`;
  }
  const message = entry?.message as { provider?: unknown; model?: unknown } | undefined;
  if (typeof message?.provider === "string" && typeof message.model === "string") {
    return `${message.provider}/${message.model}`;
  }
  return undefined;
}

/**
 * Reads a session file once, in 1 MiB chunks (memory stays flat whatever its size), and summarizes
 * it: header id, folder and start, entries, size, the latest name and model, the first user
 * message, the last entry's time. Only lines that may matter are parsed (the header, the last line,
 * the first user message, and the last `session_info`, `model_change` and assistant message).
 * Returns undefined for a file whose first line is not a session header, or that cannot be read.
 * Never changes the file.
 */
export function summarizeSessionFile(file: string): SessionFileSummary | undefined {
  let fd: number;
  let stat: fs.Stats;
  try {
    fd = fs.openSync(file, "r");
    stat = fs.fstatSync(fd);
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(CHUNK);
    let pending = "";
    let headerLine: string | undefined;
    let lastLine: string | undefined;
    let lines = 0;
    let nameLine: string | undefined;
    let modelLine: string | undefined;
    let firstMessage: string | undefined;
    const visit = (line: string) => {
      if (line.trim() === "") return;
      lines++;
      if (headerLine === undefined) {
        headerLine = line;
        return;
      }
      lastLine = line;
      if (line.includes('"session_info"')) nameLine = line;
      if (line.includes('"model_change"') || line.includes('"role":"assistant"')) {
        if (modelOf(line) !== undefined) modelLine = line;
      }
      if (firstMessage === undefined && line.includes('"role":"user"')) {
        const entry = parse(line) as
          | { type?: unknown; message?: { role?: unknown; content?: unknown } }
          | undefined;
        if (entry?.type === "message" && entry.message?.role === "user") {
          const text = textOf(entry.message.content)?.replace(/\s+/g, " ").trim();
          if (text) firstMessage = text.length > 80 ? `${text.slice(0, 79)}…` : text;
        }
      }
    };
    for (let position = 0; ; ) {
      const read = fs.readSync(fd, buffer, 0, CHUNK, position);
      if (read === 0) break;
      position += read;
      const text = pending + buffer.subarray(0, read).toString("latin1");
      const parts = text.split("\n");
      pending = parts.pop() ?? "";
      for (const part of parts) visit(part);
      if (headerLine !== undefined && parse(headerLine)?.type !== "session") return undefined;
    }
    visit(pending);
    const header = parse(headerLine);
    if (header?.type !== "session" || typeof header.id !== "string") return undefined;
    const name = (parse(nameLine) as { name?: unknown } | undefined)?.name;
    return {
      path: file,
      id: header.id,
      cwd: typeof header.cwd === "string" ? header.cwd : undefined,
      name: typeof name === "string" && name !== "" ? name : undefined,
      firstMessage,
      started: dateOf(header.timestamp, stat.mtime),
      lastActivity: dateOf(parse(lastLine)?.timestamp, stat.mtime),
      entries: Math.max(0, lines - 1),
      bytes: stat.size,
      model: modelOf(modelLine),
    };
  } finally {
    fs.closeSync(fd);
  }
}
