import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, CLI_PATH, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

const GENERATOR = path.join(REPO_ROOT, "bench/generate-session.mjs");
const COMMANDS = ["inspect", "tree", "export", "compact", "replay", "sessions", "models", "trust", "untrust"];

let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  assertCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-command-line-"));
  env = isolatedEnv({ ARBOR_HOME: path.join(dir, "home"), HOME: dir });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("help and usage errors (built CLI)", () => {
  it("every subcommand has --help (exit 0, its own usage on stdout), listed in arbor --help", async () => {
    const main = await runCliProcess(["--help"], { env, cwd: dir });
    expect(main.code).toBe(0);
    for (const name of COMMANDS) {
      expect(main.stdout).toContain(`arbor ${name} `);
      for (const flag of ["--help", "-h"]) {
        const run = await runCliProcess([name, flag], { env, cwd: dir });
        expect(run.stderr, `${name} ${flag}`).toBe("");
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(new RegExp(`^Usage: arbor ${name} `));
      }
    }
  });

  it("a usage error is one line naming the problem and the help, exit 2, in the CLI's own words", async () => {
    const cases: Array<[string[], string]> = [
      [["-p", "x", "--print-mode"], "arbor: unknown option --print-mode (see arbor --help)\n"],
      [["--model"], "arbor: --model needs a value (--model ID) (see arbor --help)\n"],
      [
        ["inspect", "--leaf"],
        "arbor: inspect: --leaf needs a value (--leaf ID) (see arbor inspect --help)\n",
      ],
      [["tree", "--json"], "arbor: tree: unknown option --json (see arbor tree --help)\n"],
      [
        ["compact"],
        "arbor: compact: missing <session> (arbor compact <session>) (see arbor compact --help)\n",
      ],
    ];
    for (const [args, stderr] of cases) {
      const run = await runCliProcess(args, { env, cwd: dir });
      expect(run.stderr, args.join(" ")).toBe(stderr);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
    }
  });
});

describe("a closed stdout", () => {
  it("`arbor tree big.jsonl | head` ends quietly with exit 0 when the reader stops", async () => {
    const file = path.join(dir, "big.jsonl");
    const generator = await import(GENERATOR);
    generator.writeSessionFile(file, { entries: 6000, seed: 5 });
    const child = spawn(process.execPath, [CLI_PATH, "tree", file], {
      env,
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let firstChunk = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.once("data", (chunk: Buffer) => {
      firstChunk = chunk.toString("utf8");
      child.stdout.destroy(); // like `head` exiting after its lines
    });
    const code = await new Promise<number | null>((resolve) =>
      child.on("close", (status) => resolve(status)),
    );
    expect(firstChunk).toContain("Session ");
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
