/** Output limits shared by read and bash. */
export const MAX_OUTPUT_LINES = 2000;
export const MAX_OUTPUT_BYTES = 50 * 1024;

/** The part of a text that fits the limits, and whether anything was cut. */
export interface TruncatedText {
  text: string;
  truncated: boolean;
  /** Lines in the kept text. */
  keptLines: number;
  totalLines: number;
}

/** Keeps the first lines of `lines` that fit both limits (at least one line, cut to the byte limit). */
export function truncateHead(
  lines: readonly string[],
  maxLines = MAX_OUTPUT_LINES,
  maxBytes = MAX_OUTPUT_BYTES,
) {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line, "utf8") + 1;
    if (kept.length >= maxLines || (kept.length > 0 && bytes + size > maxBytes)) break;
    kept.push(kept.length === 0 && size > maxBytes ? sliceBytes(line, maxBytes) : line);
    bytes += size;
  }
  return {
    text: kept.join("\n"),
    truncated: kept.length < lines.length || kept[0] !== lines[0],
    keptLines: kept.length,
    totalLines: lines.length,
  } satisfies TruncatedText;
}

/** Keeps the last lines of `text` that fit both limits (bash output: the end matters most). */
export function truncateTail(text: string, maxLines = MAX_OUTPUT_LINES, maxBytes = MAX_OUTPUT_BYTES) {
  const lines = text.split("\n");
  const kept: string[] = [];
  let bytes = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] ?? "";
    const size = Buffer.byteLength(line, "utf8") + 1;
    if (kept.length >= maxLines || bytes + size > maxBytes) break;
    kept.unshift(line);
    bytes += size;
  }
  return {
    text: kept.join("\n"),
    truncated: kept.length < lines.length,
    keptLines: kept.length,
    totalLines: lines.length,
  } satisfies TruncatedText;
}

function sliceBytes(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, "utf8").subarray(0, maxBytes);
  // Drop a trailing partial UTF-8 sequence (decoded as U+FFFD).
  return buffer.toString("utf8").replace(/\uFFFD$/, "");
}
