import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./parse-cli-args";

describe("parseCliArgs", () => {
  it("parses inspect with every flag", () => {
    expect(
      parseCliArgs([
        "inspect",
        "s.jsonl",
        "--leaf",
        "abc",
        "--keep-recent-tokens",
        "500",
        "--json",
        "--full",
      ]),
    ).toEqual({
      kind: "inspect",
      file: "s.jsonl",
      leafId: "abc",
      keepRecentTokens: 500,
      json: true,
      full: true,
    });
  });

  it("parses print mode and the session flags", () => {
    const command = parseCliArgs(["-p", "hello", "--json", "--model", "local-8k", "--no-session"]);
    expect(command).toMatchObject({
      kind: "print",
      prompt: "hello",
      json: true,
      model: "local-8k",
      noSession: true,
    });
  });

  it("defaults to the interactive agent", () => {
    expect(parseCliArgs([]).kind).toBe("interactive");
  });

  it("rejects bad input with CLI_USAGE", () => {
    for (const args of [
      ["inspect"],
      ["inspect", "a", "b"],
      ["inspect", "a", "--keep-recent-tokens", "-3"],
      ["tree", "a", "--bogus"],
      ["--session", "x", "--continue"],
      ["frobnicate"],
      ["--json"],
    ]) {
      expect(() => parseCliArgs(args), args.join(" ")).toThrow(
        expect.objectContaining({ code: "CLI_USAGE" }),
      );
    }
  });
});
