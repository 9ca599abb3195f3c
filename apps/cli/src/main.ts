import { runCli } from "./run-cli";

const exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
process.exitCode = exitCode;
