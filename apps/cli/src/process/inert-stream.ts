import type { SecretRedactor } from "@arbor/providers";
import type { CliIo } from "../cli-io";
import { isInertUtf8 } from "../format/is-inert-utf8";
import { sanitizeTerminalText } from "../format/sanitize-terminal-text";

/** The bytes of `://`, which every URL userinfo the redactor removes is preceded by. */
const URL_MARK = Buffer.from("://");

/**
 * A stream whose writes are made inert (`sanitizeTerminalText`): what the commands print comes from
 * session files, models and tools; then known secrets are redacted (after the sanitizing, so that
 * escape sequences cannot split a key out of reach). Keeps `isTTY` and `columns` of the stream it
 * wraps, and its `drain` events. `writeBytes` hands bytes on as they are only when that changes
 * nothing: they are valid UTF-8 the sanitizer would leave as it is (`isInertUtf8`), and `plain` (the
 * redactor is `createCliRedactor`'s, which redacts only URL userinfo and known secrets) with no
 * secret known and no `://` in them; else it decodes them and writes the text as `write` does.
 */
export function inertStream(
  stream: CliIo["stdout"],
  redactor: SecretRedactor,
  plain: boolean,
): CliIo["stdout"] {
  const write = (chunk: string) => stream.write(redactor.redact(sanitizeTerminalText(chunk)));
  return {
    write,
    writeBytes: (chunk: Uint8Array) => {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (!plain || redactor.size > 0 || bytes.indexOf(URL_MARK) !== -1 || !isInertUtf8(bytes)) {
        return write(bytes.toString("utf8"));
      }
      if (stream.writeBytes) return stream.writeBytes(bytes);
      // A Node stream (`process.stdout`) takes bytes as they are; anything else, their text.
      const takesBytes = typeof (stream as { writableLength?: unknown }).writableLength === "number";
      return stream.write(takesBytes ? (bytes as unknown as string) : bytes.toString("utf8"));
    },
    // `drain` and the end of the stream, for long outputs (see `waitForDrain`).
    ...(typeof stream.once === "function"
      ? {
          once: (event: "drain" | "close" | "error", listener: () => void) => stream.once?.(event, listener),
          removeListener: (event: "drain" | "close" | "error", listener: () => void) =>
            stream.removeListener?.(event, listener),
        }
      : {}),
    get isTTY() {
      return (stream as { isTTY?: boolean }).isTTY;
    },
    get columns() {
      return (stream as { columns?: number }).columns;
    },
  } as CliIo["stdout"];
}
