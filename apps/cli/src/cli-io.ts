import type { SecretRedactor } from "@arbor/providers";
import type { DrainableStream } from "./process/wait-for-drain";

/** Streams the CLI writes to and the environment it reads; injectable so tests can capture output. */
export interface CliIo {
  /**
   * Where results go. `write` returns what a Node stream's does (`false`: its buffer is full); `once`
   * and `removeListener`, when present, let a long output wait for `drain` (see `waitForDrain`).
   */
  stdout: { write(chunk: string): unknown } & DrainableStream;
  stderr: { write(chunk: string): unknown };
  /** Environment variables (API keys, ARBOR_HOME). Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * Standard input, read by print mode when it is not a terminal (`echo "…" | arbor -p`).
   * Default `process.stdin`.
   */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Working folder. Default `process.cwd()`. */
  cwd?: string;
  /**
   * Secrets to keep out of everything printed (set by `runCli`, which seeds it from the
   * environment; commands add the key and endpoint of the model they bind).
   */
  redactor?: SecretRedactor;
}
