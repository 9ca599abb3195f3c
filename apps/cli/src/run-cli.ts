import type { SecretRedactor } from "@arbor/providers";
import { version } from "../package.json";
import type { CliIo } from "./cli-io";
import { sanitizeTerminalText } from "./format/sanitize-terminal-text";
import { parseCliArgs } from "./parse-cli-args";
import { reportError } from "./report-error";
import { createCliRedactor } from "./secrets/create-cli-redactor";

export type { CliIo } from "./cli-io";

/** The CLI's version (printed by `--version`), read from its package.json when the CLI is built. */
export const CLI_VERSION: string = version;

/**
 * A stream whose writes are made inert (`sanitizeTerminalText`): what the commands print comes from
 * session files, models and tools; then known secrets are redacted (after the sanitizing, so that
 * escape sequences cannot split a key out of reach). Keeps `isTTY` and `columns` of the stream it
 * wraps, and its `drain` events.
 */
function inertStream(stream: CliIo["stdout"], redactor: SecretRedactor): CliIo["stdout"] {
  return {
    write: (chunk: string) => stream.write(redactor.redact(sanitizeTerminalText(chunk))),
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

/**
 * Runs the CLI with the given arguments and returns the process exit code. Never throws: errors are
 * printed by {@link reportError} as one line on stderr. Commands are loaded on demand so that the
 * offline commands never load a provider SDK. Everything the commands write to `io` is made inert on
 * a terminal (escape and control sequences removed; JSON output has them escaped already); the
 * interactive mode draws on the terminal itself and sanitizes what it draws. Everything printed is
 * also redacted: URL userinfo, and the keys and passwords the CLI knows (see `createCliRedactor`).
 */
export async function runCli(args: readonly string[], rawIo: CliIo): Promise<number> {
  const redactor = rawIo.redactor ?? createCliRedactor(rawIo.env ?? process.env);
  const io: CliIo = {
    ...rawIo,
    redactor,
    stdout: inertStream(rawIo.stdout, redactor),
    stderr: inertStream(rawIo.stderr, redactor),
  };
  try {
    const parsed = parseCliArgs(args);
    if (parsed.kind === "command") {
      const baseUrl = (parsed.input as { baseUrl?: unknown } | undefined)?.baseUrl;
      if (typeof baseUrl === "string") redactor.addUrlCredentials(baseUrl);
    }
    switch (parsed.kind) {
      case "help":
        io.stdout.write(parsed.text);
        return 0;
      case "version":
        io.stdout.write(`${CLI_VERSION}\n`);
        return 0;
      case "command":
        return await parsed.run(io);
    }
  } catch (error) {
    return reportError(error, io);
  }
}
