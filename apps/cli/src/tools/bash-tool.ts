import { formatBytes } from "../format/format-bytes";
import { type BoundedOutputResult, MAX_SPILL_BYTES } from "./bounded-output";
import { type CodingTool, textOutput } from "./coding-tool";
import { runShellCommand } from "./run-shell-command";
import { optionalPositiveInteger, requireString } from "./tool-arguments";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./truncate-output";

/** The timeout of a bash call that names none, in seconds (setting `tools.bashTimeoutSeconds`). */
export const DEFAULT_BASH_TIMEOUT_SECONDS = 120;

/** Options of {@link createBashTool}. */
export interface BashToolOptions {
  /**
   * Timeout in seconds of a call without its own `timeout`; `0` for none. Default
   * {@link DEFAULT_BASH_TIMEOUT_SECONDS}.
   */
  defaultTimeoutSeconds?: number;
}

/** The note put before a truncated output: what is shown, and where the rest is. */
function truncationNote(output: BoundedOutputResult): string {
  const shown = output.partialLine
    ? `showing the last ${formatBytes(Buffer.byteLength(output.text, "utf8"))} of ${formatBytes(output.totalBytes)}; the last line alone is longer than ${formatBytes(MAX_OUTPUT_BYTES)}`
    : `showing the last ${output.shownLines} of ${output.totalLines} lines`;
  const where =
    output.fullOutputPath === undefined
      ? `The full output could not be saved${output.spillError ? ` (${output.spillError})` : ""}.`
      : output.spillLimited
        ? `The first ${formatBytes(MAX_SPILL_BYTES)} of the output: ${output.fullOutputPath}`
        : `Full output: ${output.fullOutputPath}`;
  return `[Output truncated: ${shown}. ${where}]`;
}

/**
 * The `bash` tool: runs a command with `bash -c` in the working folder (see `runShellCommand`) and
 * returns stdout and stderr combined, keeping the last 2000 lines / 50 KB; a longer output goes to a
 * 0600 file in arbor's private tool output folder (named in the result; removed when arbor exits),
 * and a single line longer than 50 KB shows its end. `timeout` is in seconds; a call without one gets
 * the default. Throws, with the output in the message, when the command exits non-zero, times out or
 * is aborted (every process of the command is killed).
 */
export function createBashTool(cwd: string, options: BashToolOptions = {}): CodingTool {
  const defaultTimeout = options.defaultTimeoutSeconds ?? DEFAULT_BASH_TIMEOUT_SECONDS;
  const limitText =
    defaultTimeout > 0
      ? ` Commands are stopped after ${defaultTimeout} seconds unless you pass a timeout (in seconds); give long builds or test runs a larger one.`
      : " Optional timeout in seconds.";
  return {
    name: "bash",
    description: `Run a shell command in the working folder. Returns stdout and stderr (the last ${MAX_OUTPUT_LINES} lines or ${MAX_OUTPUT_BYTES / 1024} KB; the full output is saved to a file named in the result).${limitText} Background processes that keep the output open are stopped when the command ends: redirect their output (cmd > file.log 2>&1 &) to keep them running.`,
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", description: "The command line to run" },
        timeout: { type: "number", description: "Kill the command after this many seconds" },
      },
      required: ["command"],
    },
    async execute(args, context) {
      const command = requireString("bash", args, "command");
      const timeout =
        optionalPositiveInteger("bash", args, "timeout") ?? (defaultTimeout > 0 ? defaultTimeout : undefined);
      const run = await runShellCommand(command, {
        cwd,
        ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}),
        ...(context?.signal ? { signal: context.signal } : {}),
      });
      const { output } = run;
      let text = output.text.length > 0 ? output.text : "(no output)";
      if (output.truncated) text = `${truncationNote(output)}\n${text}`;
      if (run.stoppedBackground > 0) {
        text += `\n\n[Stopped ${run.stoppedBackground} background process${run.stoppedBackground === 1 ? "" : "es"} still holding the output after the command ended. To keep a process running, redirect its output: cmd > file.log 2>&1 &]`;
      }
      if (run.aborted) throw new Error(`${text}\n\nCommand aborted`);
      if (run.timedOut) {
        throw new Error(
          `${text}\n\nCommand timed out after ${timeout} seconds${args.timeout === undefined ? " (the default; pass a larger timeout for long commands)" : ""}`,
        );
      }
      if (run.exitCode === null)
        throw new Error(`${text}\n\nCommand was killed by ${run.signal ?? "a signal"}`);
      if (run.exitCode !== 0) throw new Error(`${text}\n\nCommand exited with code ${run.exitCode}`);
      return textOutput(text, {
        command,
        exitCode: 0,
        truncated: output.truncated,
        ...(output.fullOutputPath !== undefined ? { fullOutputPath: output.fullOutputPath } : {}),
      });
    },
  };
}
