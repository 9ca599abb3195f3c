/** Streams the CLI writes to; injectable so tests can capture output. */
export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
}

const HELP = `arbor: long-running agent sessions as append-only trees

Usage:
  arbor --help                 show this help
  arbor --version              print the version

More commands arrive with the CLI issue (inspect, tree, compact, the agent).
`;

/**
 * Runs the CLI with the given arguments and returns the process exit code.
 * Never throws for user errors: they are printed as one line on stderr.
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const [first] = args;
  if (first === undefined || first === "--help" || first === "-h") {
    io.stdout.write(HELP);
    return 0;
  }
  if (first === "--version" || first === "-v") {
    io.stdout.write("0.1.0\n");
    return 0;
  }
  io.stderr.write(`arbor: unknown command "${first}" (try arbor --help)\n`);
  return 2;
}
