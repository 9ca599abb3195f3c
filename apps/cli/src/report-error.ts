import { ArborError } from "@arbor/providers";
import { CliError } from "./cli-error";
import type { CliIo } from "./cli-io";

const USER_ERRNO = new Set(["ENOENT", "EACCES", "EPERM", "EISDIR", "ENOTDIR", "EEXIST", "EROFS", "ENOSPC"]);

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/**
 * Prints an error as one line on stderr and returns the exit code: the CliError's own code (2 for
 * usage errors), 1 for any other Arbor error or file-system error (they name the file and the
 * problem). Anything else is a bug: it is reported as an internal error, with the stack trace only
 * when `ARBOR_DEBUG` is set.
 */
export function reportError(error: unknown, io: CliIo): number {
  const env = io.env ?? process.env;
  if (error instanceof CliError) {
    io.stderr.write(`arbor: ${oneLine(error.message)}\n`);
    return error.exitCode;
  }
  if (ArborError.isInstance(error)) {
    const hint =
      error.code === "EXTENSION_TIMEOUT"
        ? " (set extensionTimeoutMs in settings.json if it needs longer)"
        : "";
    io.stderr.write(`arbor: ${oneLine(error.message)}${hint}\n`);
    if (env.ARBOR_DEBUG) io.stderr.write(`${error.stack}\n`);
    return 1;
  }
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof Error && errno !== undefined && USER_ERRNO.has(errno)) {
    io.stderr.write(`arbor: ${oneLine(error.message)}\n`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(
    `arbor: internal error: ${oneLine(message)}${env.ARBOR_DEBUG ? "" : " (set ARBOR_DEBUG=1 for the stack trace)"}\n`,
  );
  if (env.ARBOR_DEBUG && error instanceof Error) io.stderr.write(`${error.stack}\n`);
  return 1;
}
