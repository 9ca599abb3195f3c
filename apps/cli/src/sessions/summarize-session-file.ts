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

/** A line's bytes parsed as UTF-8 JSON (a byte order mark before it is allowed). */
function parse(line: Buffer | undefined): Record<string, unknown> | undefined {
  if (line === undefined) return undefined;
  try {
    const value = JSON.parse(line.toString("utf8").replace(/^\uFEFF/, ""));
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

function modelOf(line: Buffer | undefined): string | undefined {
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

/** The bytes of the parts of a line worth looking for, as the file holds them. */
const SESSION_INFO = Buffer.from('"session_info"');
const MODEL_CHANGE = Buffer.from('"model_change"');
const ASSISTANT = Buffer.from('"role":"assistant"');
const USER = Buffer.from('"role":"user"');

/** True when every byte is white space as `String#trim` sees it in a latin1 decoding. */
function isBlank(line: Uint8Array): boolean {
  for (const byte of line) {
    if (byte !== 0x20 && (byte < 0x09 || byte > 0x0d) && byte !== 0xa0) return false;
  }
  return true;
}

/** Where a line is in the file. */
interface LineAt {
  at: number;
  length: number;
}

/**
 * Reads a session file once, in 1 MiB chunks (memory stays flat whatever its size, but for a line
 * longer than a chunk), and summarizes it: header id, folder and start, entries, size, the latest
 * name and model, the first user message, the last entry's time. Lines are found and searched as
 * bytes; only lines that may matter are decoded and parsed (the header, the first user message, and
 * at the end the last line, the last `session_info` line, and the last `model_change` or assistant
 * line that names a model, read again by their place). Returns undefined for a file whose first line
 * is not a session header, or that cannot be read. Never changes the file.
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
    const readLine = (line: LineAt | undefined) => {
      if (line === undefined) return undefined;
      const bytes = Buffer.allocUnsafe(line.length);
      fs.readSync(fd, bytes, 0, line.length, line.at);
      return bytes;
    };
    let header: Record<string, unknown> | undefined;
    let lastLine: LineAt | undefined;
    let nameLine: LineAt | undefined;
    const modelLines: LineAt[] = [];
    let lines = 0;
    let firstMessage: string | undefined;
    /** Looks at one line (`bytes`, at file offset `at`); false to stop: the file is not a session. */
    const visit = (bytes: Uint8Array, at: number): boolean => {
      if (isBlank(bytes)) return true;
      lines++;
      const line = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      if (header === undefined) {
        header = parse(line) ?? {};
        return header.type === "session";
      }
      const place = { at, length: line.length };
      lastLine = place;
      if (line.includes(SESSION_INFO)) nameLine = place;
      if (line.includes(MODEL_CHANGE) || line.includes(ASSISTANT)) modelLines.push(place);
      if (firstMessage === undefined && line.includes(USER)) {
        const entry = parse(line) as
          | { type?: unknown; message?: { role?: unknown; content?: unknown } }
          | undefined;
        if (entry?.type === "message" && entry.message?.role === "user") {
          const text = textOf(entry.message.content)?.replace(/\s+/g, " ").trim();
          if (text) firstMessage = text.length > 80 ? `${text.slice(0, 79)}…` : text;
        }
      }
      return true;
    };
    let buffer = Buffer.alloc(CHUNK);
    /** Bytes at the start of `buffer` kept from the chunk before: a line not ended yet. */
    let kept = 0;
    let position = 0;
    for (;;) {
      if (kept === buffer.length) {
        // One line longer than the buffer: make room for the rest of it.
        const larger = Buffer.alloc(buffer.length * 2);
        buffer.copy(larger, 0, 0, kept);
        buffer = larger;
      }
      const read = fs.readSync(fd, buffer, kept, buffer.length - kept, position);
      const end = kept + read;
      const base = position - kept;
      let from = 0;
      if (read === 0) {
        if (end > 0 && !visit(buffer.subarray(0, end), base)) return undefined;
        break;
      }
      position += read;
      for (let newline = buffer.indexOf(10, kept); newline !== -1 && newline < end; ) {
        if (!visit(buffer.subarray(from, newline), base + from)) return undefined;
        from = newline + 1;
        newline = from < end ? buffer.indexOf(10, from) : -1;
      }
      kept = end - from;
      buffer.copy(buffer, 0, from, end);
    }
    if (header?.type !== "session" || typeof header.id !== "string") return undefined;
    const name = (parse(readLine(nameLine)) as { name?: unknown } | undefined)?.name;
    let model: string | undefined;
    for (let k = modelLines.length - 1; k >= 0 && model === undefined; k--) {
      model = modelOf(readLine(modelLines[k]));
    }
    return {
      path: file,
      id: header.id,
      cwd: typeof header.cwd === "string" ? header.cwd : undefined,
      name: typeof name === "string" && name !== "" ? name : undefined,
      firstMessage,
      started: dateOf(header.timestamp, stat.mtime),
      lastActivity: dateOf(parse(readLine(lastLine))?.timestamp, stat.mtime),
      entries: Math.max(0, lines - 1),
      bytes: stat.size,
      model,
    };
  } finally {
    fs.closeSync(fd);
  }
}
