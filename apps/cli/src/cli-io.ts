import type { SecretRedactor } from "@arbor/providers";
import type { DrainableStream } from "./process/wait-for-drain";

/** Streams the CLI writes to and the environment it reads; injectable so tests can capture output. */
export interface CliIo {
  /**
   * Where results go. `write` returns what a Node stream's does (`false`: its buffer is full); `once`
   * and `removeListener`, when present, let a long output wait for `drain` (see `waitForDrain`).
   */
  stdout: {
    write(chunk: string): unknown;
    /**
     * Writes UTF-8 text given as bytes, as `write` would write its decoding (made inert and redacted
     * the same way), without decoding it when it needs no change. Optional: without it, decode and
     * `write`. Returns what `write` returns. Must not be given bytes it may not keep: a stream may
     * hold them until they are written.
     */
    writeBytes?(chunk: Uint8Array): unknown;
  } & DrainableStream;
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
