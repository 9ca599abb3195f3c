import { killAllToolProcesses } from "../tools/tool-processes";

let installed = false;

/**
 * Installs the handlers for a closed output (once; later calls do nothing):
 * - stdout closed by its reader (`arbor tree big.jsonl | head`: EPIPE) ends arbor quietly with exit
 *   code 0, as a pager that has read enough is not an error. Tool processes are killed first; the
 *   exit hooks release session locks. Any other stdout error is one `arbor:` line on stderr and exit 1.
 * - an error on stderr is ignored (there is nowhere left to report it).
 */
export function installClosedOutputHandlers(): void {
  if (installed) return;
  installed = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    killAllToolProcesses();
    if (error.code === "EPIPE") process.exit(0);
    process.stderr.write(`arbor: cannot write to stdout: ${error.message}\n`);
    process.exit(1);
  });
  process.stderr.on("error", () => undefined);
}
