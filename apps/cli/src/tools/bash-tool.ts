import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CodingTool, textOutput } from "./coding-tool";
import { optionalPositiveInteger, requireString } from "./tool-arguments";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, truncateTail } from "./truncate-output";

/** How a bash run ended. */
interface BashRun {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
}

function pickShell(): string {
  return fs.existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

function runCommand(command: string, cwd: string, timeoutSeconds?: number, signal?: AbortSignal) {
  return new Promise<BashRun>((resolve, reject) => {
    if (signal?.aborted) {
      resolve({ output: "", exitCode: null, timedOut: false, aborted: true });
      return;
    }
    // A separate process group so that a timeout or abort kills the whole pipeline.
    const child = spawn(pickShell(), ["-c", command], {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let timedOut = false;
    let aborted = false;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer =
      timeoutSeconds === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            kill();
          }, timeoutSeconds * 1000);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", (error) => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (code) => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve({ output: Buffer.concat(chunks).toString("utf8"), exitCode: code, timedOut, aborted });
    });
  });
}

function saveFullOutput(output: string): string {
  const file = path.join(os.tmpdir(), `arbor-bash-${process.pid}-${Date.now()}.log`);
  fs.writeFileSync(file, output, "utf8");
  return file;
}

/**
 * The `bash` tool: runs a command with `bash -c` in the working folder and returns stdout and stderr
 * combined, keeping the last 2000 lines / 50 KB (the full output goes to a temp file, named in the
 * result). `timeout` is in seconds. Throws, with the output in the message, when the command exits
 * non-zero, times out or is aborted (the whole process group is killed).
 */
export function createBashTool(cwd: string): CodingTool {
  return {
    name: "bash",
    description: `Run a shell command in the working folder. Returns stdout and stderr (the last ${MAX_OUTPUT_LINES} lines or ${MAX_OUTPUT_BYTES / 1024} KB). Optional timeout in seconds.`,
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", description: "The command line to run" },
        timeout: { type: "number", description: "Kill the command after this many seconds" },
      },
      required: ["command"],
    },
    async execute(args, context) {
      const signal = context?.signal;
      const command = requireString("bash", args, "command");
      const timeout = optionalPositiveInteger("bash", args, "timeout");
      const run = await runCommand(command, cwd, timeout, signal);
      const trimmed = run.output.replace(/\n$/, "");
      const kept = truncateTail(trimmed);
      let text = kept.text.length > 0 ? kept.text : "(no output)";
      let fullOutputPath: string | undefined;
      if (kept.truncated) {
        fullOutputPath = saveFullOutput(run.output);
        text = `[Output truncated: showing the last ${kept.keptLines} of ${kept.totalLines} lines. Full output: ${fullOutputPath}]\n${text}`;
      }
      if (run.aborted) throw new Error(`${text}\n\nCommand aborted`);
      if (run.timedOut) throw new Error(`${text}\n\nCommand timed out after ${timeout} seconds`);
      if (run.exitCode !== 0) throw new Error(`${text}\n\nCommand exited with code ${run.exitCode}`);
      return textOutput(text, { command, exitCode: 0, truncated: kept.truncated, fullOutputPath });
    },
  };
}
