import { type ChildProcess, spawn } from "node:child_process";
import { CLI_PATH } from "./cli-paths";

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal escape sequences
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007|\u001b[()][0-9A-Za-z]|\u001b[=>78]/g;

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The built CLI running in a pseudo-terminal (util-linux `script`), for driving the interactive mode
 * like a user: send keystrokes, wait for text to appear on the screen.
 */
export class PtySession {
  private raw = "";
  private readonly child: ChildProcess;
  /** Resolves with the exit code when the program ends. */
  readonly exited: Promise<number | null>;

  constructor(args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string; columns?: number }) {
    const command = [
      `stty cols ${options.columns ?? 120} rows 40 2>/dev/null;`,
      "exec",
      shellQuote(process.execPath),
      shellQuote(CLI_PATH),
      ...args.map(shellQuote),
    ].join(" ");
    this.child = spawn("script", ["-qfec", command, "/dev/null"], {
      cwd: options.cwd,
      env: { TERM: "xterm-256color", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout?.on("data", (chunk: Buffer) => {
      this.raw += chunk.toString("utf8");
    });
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.raw += chunk.toString("utf8");
    });
    this.exited = new Promise((resolve) => this.child.on("close", (code) => resolve(code)));
  }

  /** Everything printed so far, with terminal escape sequences and carriage returns removed. */
  get screen(): string {
    return this.raw.replace(ANSI, "").replace(/\r/g, "");
  }

  /** Everything printed so far, escapes included. */
  get rawOutput(): string {
    return this.raw;
  }

  /** Types `text` (no Enter). */
  type(text: string): void {
    this.child.stdin?.write(text);
  }

  /** Types a line and presses Enter. */
  sendLine(text: string): void {
    this.child.stdin?.write(`${text}\r`);
  }

  /**
   * Waits until `pattern` appears in the screen text after `from` (a character offset of `screen`;
   * default 0) and returns the offset just past the match. Rejects after `timeoutMs` with the screen.
   */
  async waitFor(
    pattern: string | RegExp,
    options: { from?: number; timeoutMs?: number } = {},
  ): Promise<number> {
    const from = options.from ?? 0;
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    for (;;) {
      const text = this.screen.slice(from);
      const index = typeof pattern === "string" ? text.indexOf(pattern) : (pattern.exec(text)?.index ?? -1);
      if (index !== -1) {
        const length = typeof pattern === "string" ? pattern.length : (pattern.exec(text)?.[0].length ?? 0);
        return from + index + length;
      }
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`timed out waiting for ${String(pattern)}; screen:\n${this.screen.slice(-3000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Kills the terminal and the program. */
  kill(): void {
    this.child.kill("SIGKILL");
  }
}

export { CLI_PATH };
