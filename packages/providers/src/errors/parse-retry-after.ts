import { type HeaderSource, readHeader } from "./header-lookup";

/**
 * Reads how long a provider asked the client to wait, in milliseconds: `retry-after-ms` (OpenAI),
 * then `retry-after` as seconds (`"2"`, `"0.5"`) or an HTTP date. Returns `undefined` when no
 * header is present or it cannot be read; negative waits become 0. Pure apart from reading `now`.
 */
export function parseRetryAfter(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const milliseconds = readHeader(headers, "retry-after-ms");
  if (milliseconds !== undefined && milliseconds.trim() !== "") {
    const value = Number(milliseconds);
    if (Number.isFinite(value)) return Math.max(0, Math.round(value));
  }
  const retryAfter = readHeader(headers, "retry-after")?.trim();
  if (!retryAfter) return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
