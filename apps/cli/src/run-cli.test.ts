import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

function capture() {
  let out = "";
  let err = "";
  return {
    io: { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } },
    out: () => out,
    err: () => err,
  };
}

describe("runCli", () => {
  it("prints help", async () => {
    const c = capture();
    expect(await runCli(["--help"], c.io)).toBe(0);
    expect(c.out()).toContain("Usage:");
  });
  it("rejects an unknown command with one line and exit 2", async () => {
    const c = capture();
    expect(await runCli(["frobnicate"], c.io)).toBe(2);
    expect(c.err().trim().split("\n")).toHaveLength(1);
  });
});
