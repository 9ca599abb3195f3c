import { installClosedOutputHandlers } from "./process/install-closed-output-handlers";
import { installTerminationHandlers } from "./process/termination-signals";
import { runCli } from "./run-cli";

/** Resolves once what was written to `stream` has been handed to the OS (at once when nothing is queued). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => stream.write("", () => resolve()));
}

/**
 * The `arbor` process: runs the command of `process.argv`, then exits with its code. (A function, not
 * top-level `await`: the bin is built as CommonJS chunks, which start faster than ES modules.)
 */
async function main(): Promise<void> {
  installTerminationHandlers();
  installClosedOutputHandlers();
  const exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
  process.exitCode = exitCode;
  // The command is done: nothing may keep arbor running now, neither a closed terminal's input after
  // a signal nor what an extension left behind (a timer, a socket, an import or setup abandoned at its
  // timeout). Flush the output, then exit (exit hooks still run: the tool output folder is removed).
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(exitCode);
}

void main();
