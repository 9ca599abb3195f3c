import { ArborError } from "@arbor/providers";
import { describe, expect, it } from "vitest";
import { CliError } from "./cli-error";
import { reportError } from "./report-error";

function run(error: unknown, env: NodeJS.ProcessEnv = {}) {
  let err = "";
  const code = reportError(error, {
    stdout: { write: () => true },
    stderr: { write: (s: string) => (err += s) },
    env,
  });
  return { code, err };
}

describe("reportError", () => {
  it("prints a usage error on one line with exit 2", () => {
    expect(run(new CliError("CLI_USAGE", "bad\nflag"))).toEqual({ code: 2, err: "arbor: bad flag\n" });
  });

  it("prints any Arbor error without a stack trace", () => {
    const { code, err } = run(new ArborError("SESSION_LOCKED", "s.jsonl is locked by process 42"));
    expect(code).toBe(1);
    expect(err).toBe("arbor: s.jsonl is locked by process 42\n");
  });

  it("treats file-system errors as user errors", () => {
    const error = Object.assign(new Error("ENOENT: no such file or directory, open 'x.jsonl'"), {
      code: "ENOENT",
    });
    expect(run(error)).toEqual({
      code: 1,
      err: "arbor: ENOENT: no such file or directory, open 'x.jsonl'\n",
    });
  });

  it("labels bugs as internal errors and shows the stack only with ARBOR_DEBUG", () => {
    const quiet = run(new TypeError("x is undefined"));
    expect(quiet.err).toBe("arbor: internal error: x is undefined (set ARBOR_DEBUG=1 for the stack trace)\n");
    const loud = run(new TypeError("x is undefined"), { ARBOR_DEBUG: "1" });
    expect(loud.err.split("\n").length).toBeGreaterThan(3);
    expect(loud.err).toContain("at ");
  });
});
