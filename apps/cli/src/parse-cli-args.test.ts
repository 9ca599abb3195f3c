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

  it("parses trust, untrust and --trust-project", () => {
    expect(parseCliArgs(["trust"])).toEqual({
      kind: "trust",
      trust: "trusted",
      folder: undefined,
      list: false,
    });
    expect(parseCliArgs(["untrust", "../x"])).toEqual({
      kind: "trust",
      trust: "untrusted",
      folder: "../x",
      list: false,
    });
    expect(parseCliArgs(["trust", "--list"])).toMatchObject({ kind: "trust", list: true });
    expect(parseCliArgs(["-p", "hi", "--trust-project"])).toMatchObject({
      kind: "print",
      trustProject: true,
    });
    expect(parseCliArgs([])).toMatchObject({ kind: "interactive", trustProject: false });
    for (const args of [
      ["trust", "a", "b"],
      ["untrust", "--list"],
      ["trust", "--list", "a"],
    ]) {
      expect(() => parseCliArgs(args), args.join(" ")).toThrow(
        expect.objectContaining({ code: "CLI_USAGE" }),
      );
    }
  });

  it("refuses an empty prompt and a --base-url that is not an http(s) URL", () => {
    for (const prompt of ["", "   ", "\n"]) {
      expect(() => parseCliArgs(["-p", prompt])).toThrow(
        expect.objectContaining({
          code: "CLI_USAGE",
          message: expect.stringContaining("the prompt given is empty"),
        }),
      );
    }
    for (const url of ["not a url", "localhost:8080", "ftp://h/v1", "file:///etc/passwd", ""]) {
      for (const args of [
        ["-p", "hi", "--base-url", url],
        ["--base-url", url],
        ["compact", "s.jsonl", "--base-url", url],
      ]) {
        expect(() => parseCliArgs(args), args.join(" ")).toThrow(
          expect.objectContaining({
            code: "CLI_USAGE",
            message: `--base-url expects an http:// or https:// URL such as http://127.0.0.1:8080/v1, got "${url}"`,
          }),
        );
      }
    }
    expect(parseCliArgs(["-p", "hi", "--base-url", "http://127.0.0.1:1/v1"])).toMatchObject({
      baseUrl: "http://127.0.0.1:1/v1",
    });
  });
});
