import { version } from "../package.json";
import type { CliIo } from "./cli-io";
import { parseCliArgs } from "./parse-cli-args";
import { inertStream } from "./process/inert-stream";
import { reportError } from "./report-error";
import { createCliRedactor } from "./secrets/create-cli-redactor";

export type { CliIo } from "./cli-io";

/** The CLI's version (printed by `--version`), read from its package.json when the CLI is built. */
export const CLI_VERSION: string = version;

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
    stdout: inertStream(rawIo.stdout, redactor, rawIo.redactor === undefined),
    stderr: inertStream(rawIo.stderr, redactor, rawIo.redactor === undefined),
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
