import { installTerminationHandlers, receivedTerminationSignal } from "./process/termination-signals";
import { runCli } from "./run-cli";

installTerminationHandlers();
const exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
process.exitCode = exitCode;
// After a signal, do not wait for whatever may still hold the event loop (a closed terminal's input).
if (receivedTerminationSignal() !== undefined) process.exit(exitCode);
